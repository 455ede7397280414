using System.CommandLine;
using EventFilter.Cli.Client;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports.Client;

namespace EventFilter.Cli.Commands.Client;

/// <summary>`check NAME ITEM` (BF.EXISTS) and `mcheck NAME ITEM...` (BF.MEXISTS): a missing filter answers "definitely not".</summary>
internal static class CheckItemsCommand
{
    public static Command Create(DaemonSession session, bool multiple)
    {
        Argument<string> name = ClientSymbols.FilterName();
        Argument<string[]> items = ClientSymbols.Items();
        Argument<string> item = ClientSymbols.Item();
        Command command = multiple
            ? new("mcheck", "Look items up (BF.MEXISTS): \"definitely not\" or \"maybe\" for each. Changes nothing.") { name, items }
            : new("check", "Look an item up (BF.EXISTS): \"definitely not\" or \"maybe\". Changes nothing.") { name, item };
        session.SetAction(command, CliJsonContext.Default.ItemCheckReport, async (parsed, daemon) =>
        {
            string key = parsed.GetValue(name)!;
            string[] given = multiple ? parsed.GetValue(items)! : [parsed.GetValue(item)!];
            RespReply reply = await daemon.CallExpectingSuccessAsync(multiple ? ["BF.MEXISTS", key, .. given] : ["BF.EXISTS", key, given[0]]).ConfigureAwait(false);
            IReadOnlyList<RespReply> answers = multiple ? reply.AsArray() : [reply];
            if (answers.Count != given.Length)
            {
                throw new DaemonUnreachableException($"eventfilterd answered {answers.Count} lookups for {given.Length} items: is the socket really eventfilterd's?");
            }

            ItemAnswer[] results = [.. given.Select((value, i) => ItemAnswer.For(value, answers[i].AsInteger() == 1))];
            return new ItemCheckReport(daemon.SocketPath, key, results);
        });
        return command;
    }
}
