using System.CommandLine;
using EventFilter.Cli.Client;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports.Client;

namespace EventFilter.Cli.Commands.Client;

/// <summary>`drop NAME`: DEL, which deletes the filter and its files. Dropping a name that has no filter is exit 4, like `info`.</summary>
internal static class DropCommand
{
    public static Command Create(DaemonSession session)
    {
        Argument<string> name = ClientSymbols.FilterName();
        var command = new Command("drop", "Delete a filter and its files (DEL). Exit 4 if there is no such filter.") { name };
        session.SetAction(command, CliJsonContext.Default.DropReport, async (parsed, daemon) =>
        {
            string key = parsed.GetValue(name)!;
            long deleted = (await daemon.CallExpectingSuccessAsync(["DEL", key]).ConfigureAwait(false)).AsInteger();
            return deleted == 1
                ? new DropReport(daemon.SocketPath, key, Dropped: true)
                : throw new DaemonErrorException($"no filter named '{key}' on eventfilterd at '{daemon.SocketPath}': nothing was dropped");
        });
        return command;
    }
}
