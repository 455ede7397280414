using System.Text;
using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// How many items a parsed command adds or looks up, for the eventfilterd.items.* counters; read off its arguments,
/// so the metrics need nothing from the command handlers. A command with bad arguments still counts what it sent.
/// </summary>
internal static class CommandItems
{
    public static (int Added, int Checked) Of(CommandArguments arguments)
    {
        ReadOnlySpan<byte> name = arguments[0];
        if (name.Length < 6 || !Ascii.EqualsIgnoreCase(name[..3], "BF."u8))
        {
            return (0, 0);
        }

        int items = Math.Max(arguments.Count - 2, 0);
        if (Ascii.EqualsIgnoreCase(name, "BF.ADD"u8) || Ascii.EqualsIgnoreCase(name, "BF.MADD"u8))
        {
            return (items, 0);
        }

        if (Ascii.EqualsIgnoreCase(name, "BF.EXISTS"u8) || Ascii.EqualsIgnoreCase(name, "BF.MEXISTS"u8))
        {
            return (0, items);
        }

        if (Ascii.EqualsIgnoreCase(name, "BF.INSERT"u8))
        {
            // BF.INSERT key [options] ITEMS item...: the items are what follows the ITEMS keyword.
            for (int i = 2; i < arguments.Count; i++)
            {
                if (Ascii.EqualsIgnoreCase(arguments[i], "ITEMS"u8))
                {
                    return (arguments.Count - i - 1, 0);
                }
            }
        }

        return (0, 0);
    }
}
