using System.Text;
using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// How many items a parsed command adds or looks up, for the eventfilterd.items.* counters; read off its arguments,
/// so the metrics need nothing from the command handlers. A command with bad arguments still counts what it sent.
/// </summary>
internal static class CommandItems
{
    public static (int Added, int Checked) Of(RespCommand command, CommandArguments arguments)
    {
        int items = Math.Max(arguments.Count - 2, 0);
        switch (command)
        {
            case RespCommand.BfAdd or RespCommand.BfMadd:
                return (items, 0);
            case RespCommand.BfExists or RespCommand.BfMexists:
                return (0, items);
            case RespCommand.BfInsert:
                // BF.INSERT key [options] ITEMS item...: the items are what follows the ITEMS keyword.
                for (int i = 2; i < arguments.Count; i++)
                {
                    if (Ascii.EqualsIgnoreCase(arguments[i], "ITEMS"u8))
                    {
                        return (arguments.Count - i - 1, 0);
                    }
                }

                return (0, 0);
            default:
                return (0, 0);
        }
    }
}
