using System.CommandLine;
using EventFilter.Cli.Client;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports.Client;

namespace EventFilter.Cli.Commands.Client;

/// <summary>`add NAME ITEM` (BF.ADD) and `madd NAME ITEM...` (BF.MADD): a missing filter is made with the daemon's defaults.</summary>
internal static class AddCommand
{
    public static Command Create(DaemonSession session, bool multiple)
    {
        Argument<string> name = ClientSymbols.FilterName();
        Argument<string[]> items = ClientSymbols.Items();
        Argument<string> item = ClientSymbols.Item();
        Command command = multiple
            ? new("madd", "Add items (BF.MADD): \"added\" when new, \"maybe existed\" when the filter may have held it. A missing filter is created with the daemon's defaults. Exit 4 if a full non-scaling filter refused some; those before it are reported.") { name, items }
            : new("add", "Add an item (BF.ADD): \"added\" when new, \"maybe existed\" when the filter may have held it. A missing filter is created with the daemon's defaults.") { name, item };
        session.SetAction(command, CliJsonContext.Default.AddReport, async (parsed, daemon) =>
        {
            string key = parsed.GetValue(name)!;
            string[] given = multiple ? parsed.GetValue(items)! : [parsed.GetValue(item)!];
            if (!multiple)
            {
                long added = (await daemon.CallExpectingSuccessAsync(["BF.ADD", key, given[0]]).ConfigureAwait(false)).AsInteger();
                return new AddReport(daemon.SocketPath, key, [ItemAdded.For(given[0], added == 1)], null);
            }

            string[] request = ["BF.MADD", key, .. given];
            IReadOnlyList<RespReply> answers = (await daemon.CallExpectingSuccessAsync(request).ConfigureAwait(false)).AsArray();

            // Like RedisBloom, a full non-scaling filter ends the array early with the error as its last element.
            string? error = answers.Count > 0 && answers[^1].IsError ? DaemonConnection.Refused(request, answers[^1].Text!).Message : null;
            int answered = answers.Count - (error is null ? 0 : 1);
            ItemAdded[] results = [.. given.Take(answered).Select((value, i) => ItemAdded.For(value, answers[i].AsInteger() == 1))];
            return new AddReport(daemon.SocketPath, key, results, error);
        });
        return command;
    }
}
