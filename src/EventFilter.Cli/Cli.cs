using System.CommandLine;
using System.CommandLine.Invocation;
using EventFilter.Cli.Output;

namespace EventFilter.Cli;

/// <summary>
/// The in-process entry point: parses, runs one command, and turns every failure into one line on stderr and an
/// exit code (with --json, also a JSON error object on stdout). No exception, and so no stack trace, ever leaves this method.
/// </summary>
internal static class Cli
{
    /// <summary>Runs the tool as if from a shell, writing to <paramref name="stdout"/> and <paramref name="stderr"/>, on <paramref name="time"/>.</summary>
    public static Task<int> RunAsync(string[] args, TextWriter stdout, TextWriter stderr, TimeProvider time) =>
        RunAsync(args, CliConsole.ForWriters(stdout, stderr, time));

    /// <summary>Runs the tool on <paramref name="console"/>; returns the exit code (see <see cref="ExitCodes"/>).</summary>
    public static async Task<int> RunAsync(IReadOnlyList<string> args, CliConsole console)
    {
        try
        {
            Command root = CommandTree.Build(console, args);
            ParseResult parsed = root.Parse(args);
            if (parsed.Action is ParseErrorAction)
            {
                return UsageError.Report(parsed, console, JsonOutput.Requested(args));
            }

            var invocation = new InvocationConfiguration
            {
                Output = console.Out,
                Error = console.Error,

                // Exceptions come back here, to be reported in one line rather than as a stack trace.
                EnableDefaultExceptionHandler = false,
            };
            return await parsed.InvokeAsync(invocation).ConfigureAwait(false);
        }
#pragma warning disable CA1031 // The tool's contract is one line and an exit code for any failure, whatever its type.
        catch (Exception failure)
#pragma warning restore CA1031
        {
            string message = ErrorMessage.Describe(failure);
            int exitCode = ExitCodes.For(failure);
            await console.Error.WriteLineAsync($"{CommandTree.ToolName}: error: {message}").ConfigureAwait(false);
            if (JsonOutput.Requested(args))
            {
                JsonOutput.WriteError(console.Out, message, exitCode);
            }

            return exitCode;
        }
    }
}
