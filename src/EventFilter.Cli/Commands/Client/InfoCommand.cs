using System.CommandLine;
using EventFilter.Cli.Client;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports.Client;

namespace EventFilter.Cli.Commands.Client;

/// <summary>`info NAME`: BF.INFO, its label-value pairs read by label.</summary>
internal static class InfoCommand
{
    public static Command Create(DaemonSession session)
    {
        Argument<string> name = ClientSymbols.FilterName();
        var command = new Command("info", "Show a filter's capacity, size, layers, items and expansion (BF.INFO). Exit 4 if there is no such filter.") { name };
        session.SetAction(command, CliJsonContext.Default.FilterInfoReport, async (parsed, daemon) =>
        {
            string key = parsed.GetValue(name)!;
            IReadOnlyList<RespReply> pairs = (await daemon.CallExpectingSuccessAsync(["BF.INFO", key]).ConfigureAwait(false)).AsArray();
            var fields = new Dictionary<string, RespReply>(StringComparer.Ordinal);
            for (int i = 0; i + 1 < pairs.Count; i += 2)
            {
                fields[pairs[i].AsText()] = pairs[i + 1];
            }

            long Field(string label) => fields.TryGetValue(label, out RespReply? value)
                ? value.AsInteger()
                : throw new DaemonUnreachableException($"eventfilterd's BF.INFO has no '{label}': is the socket really eventfilterd's?");

            RespReply expansion = fields.GetValueOrDefault("Expansion rate") ?? RespReply.Nil;
            return new FilterInfoReport(
                daemon.SocketPath,
                key,
                Field("Capacity"),
                Field("Size"),
                Field("Number of filters"),
                Field("Number of items inserted"),
                expansion.Kind == RespKind.Null ? null : expansion.AsInteger());
        });
        return command;
    }
}
