using System.CommandLine;
using System.Globalization;
using EventFilter.Cli.Client;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports.Client;

namespace EventFilter.Cli.Commands.Client;

/// <summary>
/// `list [PATTERN]`: the filter names, by SCAN rather than KEYS, so that a daemon with many filters answers in
/// batches between other clients' commands. Sorted, each name once.
/// </summary>
internal static class ListCommand
{
    /// <summary>Names the daemon visits per SCAN call.</summary>
    private const int BatchSize = 1000;

    public static Command Create(DaemonSession session)
    {
        var pattern = new Argument<string>("pattern")
        {
            Description = "Redis glob the names must match: *, ?, [a-z], [^a], \\x. Default: every name.",
            DefaultValueFactory = _ => "*",
        };
        var command = new Command("list", "List the filters' names (SCAN), sorted.") { pattern };
        session.SetAction(command, CliJsonContext.Default.FilterListReport, async (parsed, daemon) =>
        {
            string glob = parsed.GetValue(pattern)!;
            var names = new SortedDictionary<string, FilterName>(StringComparer.Ordinal);
            string cursor = "0";
            do
            {
                string[] request = ["SCAN", cursor, "MATCH", glob, "COUNT", BatchSize.ToString(CultureInfo.InvariantCulture)];
                IReadOnlyList<RespReply> reply = (await daemon.CallExpectingSuccessAsync(request).ConfigureAwait(false)).AsArray();
                if (reply.Count != 2)
                {
                    throw new DaemonUnreachableException($"eventfilterd answered SCAN with {reply.Count} elements, not 2: is the socket really eventfilterd's?");
                }

                cursor = reply[0].AsText();
                foreach (RespReply key in reply[1].AsArray())
                {
                    byte[] bytes = key.AsBytes();
                    string hex = Convert.ToHexStringLower(bytes);
                    names[hex] = new FilterName(KeyText.Display(bytes), hex);
                }
            }
            while (cursor != "0");

            FilterName[] sorted = [.. names.Values.OrderBy(n => n.Name, StringComparer.Ordinal)];
            return new FilterListReport(daemon.SocketPath, glob, sorted.Length, sorted);
        });
        return command;
    }
}
