using System.Buffers.Text;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// LATENCY and SLOWLOG, answered as Redis answers them when it has nothing to report: eventfilterd keeps no latency
/// events and no slow log, so monitoring tools that ask, such as redis_exporter, get empty answers rather than errors.
/// </summary>
internal static class MonitoringCommands
{
    /// <summary>LATENCY LATEST, LATENCY HISTORY event: no events.</summary>
    public static void Empty(CommandContext context) => context.Reply.ArrayHeader(0);

    /// <summary>LATENCY HISTOGRAM [command ...]: no command has a histogram here.</summary>
    public static void EmptyMap(CommandContext context) => context.Reply.MapHeader(0);

    /// <summary>LATENCY RESET [event ...], SLOWLOG LEN: nothing was there.</summary>
    public static void Zero(CommandContext context) => context.Reply.Integer(0);

    /// <summary>SLOWLOG RESET</summary>
    public static void Ok(CommandContext context) => context.Reply.Ok();

    /// <summary>LATENCY GRAPH event: Redis's error for an event without samples.</summary>
    public static void NoSamples(CommandContext context) =>
        context.Reply.Error($"ERR No samples available for event '{CommandTable.Printable(context.Arguments[2])}'");

    /// <summary>LATENCY DOCTOR</summary>
    public static void Doctor(CommandContext context) => context.Reply.VerbatimText(
        "eventfilterd records no latency events, so there is nothing to diagnose.\n");

    /// <summary>SLOWLOG GET [count]: the count is checked as Redis checks it; the log is empty.</summary>
    public static void SlowlogGet(CommandContext context)
    {
        if (context.Arguments.Count == 3)
        {
            ReadOnlySpan<byte> text = context.Arguments[2];
            if (!Utf8Parser.TryParse(text, out long count, out int used) || used != text.Length)
            {
                context.Reply.Error("ERR value is not an integer or out of range");
                return;
            }

            if (count < -1)
            {
                context.Reply.Error("ERR count should be greater than or equal to -1");
                return;
            }
        }

        context.Reply.ArrayHeader(0);
    }

    public static void LatencyHelp(CommandContext context) => Help(context,
        "LATENCY <subcommand> [<arg> ...]. eventfilterd records no latency events.",
        "LATEST, HISTORY <event>, HISTOGRAM [<command> ...]: empty.",
        "RESET [<event> ...]: 0, nothing was recorded.",
        "GRAPH <event>: no samples.",
        "DOCTOR: nothing to diagnose.");

    public static void SlowlogHelp(CommandContext context) => Help(context,
        "SLOWLOG <subcommand> [<arg> ...]. eventfilterd keeps no slow log.",
        "GET [<count>]: empty.",
        "LEN: 0.",
        "RESET: OK.");

    private static void Help(CommandContext context, params string[] lines)
    {
        context.Reply.ArrayHeader(lines.Length);
        foreach (string line in lines)
        {
            context.Reply.SimpleString(System.Text.Encoding.ASCII.GetBytes(line));
        }
    }
}
