using System.CommandLine;
using System.Globalization;
using System.Text.Json.Serialization.Metadata;
using EventFilter.Cli.Client;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports.Client;

namespace EventFilter.Cli.Commands.Client;

/// <summary>
/// What every client command shares: the socket and timeout options (given once, before or after the command) and
/// the run itself: connect, make the calls, write the report as text or JSON, and turn a refusal into exit code 4.
/// Failures to connect or to read a reply are thrown (exit 3) and reported in one line by <see cref="Cli"/>.
/// </summary>
internal sealed class DaemonSession(CliConsole console)
{
    /// <summary>How long a command may take, connect included, when --timeout is not given.</summary>
    public static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(10);

    public Option<string> Socket { get; } = new("--socket", "-s")
    {
        Description = "eventfilterd's Unix socket: DATA/eventfilterd.sock unless the daemon was started with --socket.",
        HelpName = "path",
        Required = true,
        Recursive = true,
    };

    // Nullable with the default applied on use: a TimeSpan default would show in --help as [default: 00:00:10].
    public Option<TimeSpan?> Timeout { get; } = new("--timeout")
    {
        Description = $"Seconds to wait for the daemon, connect included. Default {DefaultTimeout.TotalSeconds}.",
        HelpName = "seconds",
        Recursive = true,
        CustomParser = ParseSeconds,
    };

    public Option<string?> PasswordFile { get; } = new("--password-file")
    {
        Description = "A file holding the password of a daemon started with --requirepass-file (one line); sent with AUTH on connect.",
        HelpName = "path",
        Recursive = true,
    };

    /// <summary>Adds --json to <paramref name="command"/> and makes it run <paramref name="call"/> against the daemon.</summary>
    public void SetAction<TReport>(Command command, JsonTypeInfo<TReport> json, Func<ParseResult, DaemonConnection, Task<TReport>> call)
        where TReport : IClientReport
    {
        Option<bool> asJson = CommonSymbols.Json();
        command.Options.Add(asJson);
        command.SetAction(async (parsed, cancel) =>
        {
            TReport report;
            await using (DaemonConnection daemon = await DaemonConnection.OpenAsync(parsed.GetValue(Socket)!, parsed.GetValue(Timeout) ?? DefaultTimeout, cancel).ConfigureAwait(false))
            {
                if (parsed.GetValue(PasswordFile) is { } passwordFile)
                {
                    await daemon.AuthenticateAsync(passwordFile).ConfigureAwait(false);
                }

                report = await call(parsed, daemon).ConfigureAwait(false);
            }

            // A refusal part-way (a full filter in madd) still reports what was done before it.
            int exitCode = report.Error is null ? ExitCodes.Success : ExitCodes.DaemonRefused;
            if (parsed.GetValue(asJson))
            {
                JsonOutput.Write(console.Out, report, json, exitCode);
            }
            else
            {
                report.WriteText(console.Out);
            }

            if (report.Error is { } refusal)
            {
                await console.Error.WriteLineAsync($"{CommandTree.ToolName}: error: {refusal}").ConfigureAwait(false);
            }

            return exitCode;
        });
    }

    private static TimeSpan? ParseSeconds(System.CommandLine.Parsing.ArgumentResult result)
    {
        string text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double seconds) || !(seconds > 0 && seconds <= 3600))
        {
            result.AddError($"--timeout must be a number of seconds above 0 and at most 3600; got '{text}'.");
            return DefaultTimeout;
        }

        return TimeSpan.FromSeconds(seconds);
    }
}
