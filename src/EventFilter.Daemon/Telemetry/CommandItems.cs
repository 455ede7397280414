using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// How many items a parsed command adds or looks up, for the eventfilterd.items.* counters: the command table says
/// which commands add or look up and where their items start (<see cref="CommandSpec.Items"/>), so the metrics need
/// nothing from the command handlers. A command with bad arguments still counts what it sent.
/// </summary>
internal static class CommandItems
{
    public static (int Added, int Checked) Of(RespCommand command, CommandArguments arguments)
    {
        ItemArguments items = CommandTable.Of(command).Items;
        int count = items.Count(arguments);
        return items.Use switch
        {
            ItemUse.Add => (count, 0),
            ItemUse.Check => (0, count),
            _ => (0, 0),
        };
    }
}
