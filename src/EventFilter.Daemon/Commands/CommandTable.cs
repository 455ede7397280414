using System.Text;
using static EventFilter.Daemon.Commands.CommandFlags;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// Every command eventfilterd knows, as COMMAND reports it (<see cref="CommandSpec"/>): <see cref="Identify"/> turns a
/// name, matched case-insensitively, into its <see cref="RespCommand"/>, and <see cref="Execute"/> checks the count
/// and runs the handler that value indexes (BF.ADD and BF.MADD have one each, so no handler reads the name), or the
/// subcommand's. Arity, unknown-command and unknown-subcommand errors use Redis's wording, which clients recognise.
/// </summary>
internal static class CommandTable
{
    private const int Any = int.MaxValue;
    private const CommandFlags Connection = NoScript | Loading | Stale;

    // Where the BF.* commands' items start: after the key, or after BF.INSERT's options and its ITEMS keyword.
    private static readonly ItemArguments AddsFrom2 = new(ItemUse.Add, 2);
    private static readonly ItemArguments ChecksFrom2 = new(ItemUse.Check, 2);
    private static readonly ItemArguments AddsAfterItems = new(ItemUse.Add, 2, "ITEMS"u8.ToArray());

    private static readonly CommandSpec[] Specs = ByCommand(
    [
        (RespCommand.Unknown, Define("", 0, Any, None, CommandKeys.None, ReplyUnknown)),
        (RespCommand.Ping, Define("PING", 1, 2, Fast, CommandKeys.None, ServerCommands.Ping)),
        (RespCommand.Echo, Define("ECHO", 2, 2, Fast, CommandKeys.None, ServerCommands.Echo)),
        (RespCommand.Quit, Define("QUIT", 1, Any, Connection | Fast | NoAuth | AllowBusy, CommandKeys.None, ServerCommands.Quit)),
        (RespCommand.Command, Define("COMMAND", 1, Any, Loading | Stale, CommandKeys.None, CommandIntrospection.All,
            Sub("command|count", 2, 2, Loading | Stale, CommandIntrospection.Count),
            Sub("command|info", 2, Any, Loading | Stale, CommandIntrospection.Info),
            Sub("command|docs", 2, Any, Loading | Stale, CommandIntrospection.Docs),
            Sub("command|list", 2, 2, Loading | Stale, CommandIntrospection.List))),
        (RespCommand.Info, Define("INFO", 1, Any, Loading | Stale, CommandKeys.None, InfoCommand.Run)),
        (RespCommand.Hello, Define("HELLO", 1, Any, Connection | Fast | NoAuth | AllowBusy, CommandKeys.None, HelloCommand.Run)),
        (RespCommand.Auth, Define("AUTH", 2, 3, Connection | Fast | NoAuth | AllowBusy, CommandKeys.None, ServerCommands.Auth)),
        (RespCommand.BfReserve, Define("BF.RESERVE", 4, 7, Write | DenyOom, CommandKeys.First, BloomCommands.Reserve)),
        (RespCommand.BfAdd, Define("BF.ADD", 3, 3, Write | DenyOom, CommandKeys.First, BloomCommands.Add) with { Items = AddsFrom2 }),
        (RespCommand.BfMadd, Define("BF.MADD", 3, Any, Write | DenyOom, CommandKeys.First, BloomCommands.MultiAdd) with { Items = AddsFrom2 }),
        (RespCommand.BfExists, Define("BF.EXISTS", 3, 3, ReadOnly, CommandKeys.First, BloomQueries.Exists) with { Items = ChecksFrom2 }),
        (RespCommand.BfMexists, Define("BF.MEXISTS", 3, Any, ReadOnly, CommandKeys.First, BloomQueries.MultiExists) with { Items = ChecksFrom2 }),
        (RespCommand.BfInfo, Define("BF.INFO", 2, 3, ReadOnly, CommandKeys.First, BloomQueries.Info)),
        (RespCommand.BfCard, Define("BF.CARD", 2, 2, ReadOnly, CommandKeys.First, BloomQueries.Card)),
        (RespCommand.BfInsert, Define("BF.INSERT", 4, Any, Write | DenyOom, CommandKeys.First, BloomInsert.Run) with { Items = AddsAfterItems }),
        (RespCommand.BfScanDump, Define("BF.SCANDUMP", 3, 3, ReadOnly, CommandKeys.First, DumpCommands.ScanDump)),
        (RespCommand.BfLoadChunk, Define("BF.LOADCHUNK", 4, 4, Write | DenyOom, CommandKeys.First, DumpCommands.LoadChunk)),
        (RespCommand.Del, Define("DEL", 2, Any, Write, CommandKeys.All, KeyCommands.Delete)),
        (RespCommand.Unlink, Define("UNLINK", 2, Any, Write | Fast, CommandKeys.All, KeyCommands.Delete)),
        (RespCommand.Exists, Define("EXISTS", 2, Any, ReadOnly | Fast, CommandKeys.All, KeyCommands.Exists)),
        (RespCommand.Type, Define("TYPE", 2, 2, ReadOnly | Fast, CommandKeys.First, KeyCommands.Type)),
        (RespCommand.Keys, Define("KEYS", 2, 2, ReadOnly, CommandKeys.None, KeyCommands.Keys)),
        (RespCommand.Scan, Define("SCAN", 2, Any, ReadOnly, CommandKeys.None, KeyScan.Run)),
        (RespCommand.FlushAll, Define("FLUSHALL", 1, 2, Write, CommandKeys.None, KeyCommands.FlushAll)),
        (RespCommand.DbSize, Define("DBSIZE", 1, 1, ReadOnly | Fast, CommandKeys.None, KeyCommands.DbSize)),
        (RespCommand.Select, Define("SELECT", 2, 2, Loading | Stale | Fast, CommandKeys.None, ServerCommands.Select)),
        (RespCommand.Client, Define("CLIENT", 2, Any, None, CommandKeys.None, ReplyUnknown,
            Sub("client|setname", 3, 3, Connection, ClientCommands.SetName),
            Sub("client|getname", 2, 2, Connection, ClientCommands.GetName),
            Sub("client|id", 2, 2, Connection, ClientCommands.Id),
            Sub("client|list", 2, Any, Admin | Connection, ClientCommands.List),
            Sub("client|info", 2, 2, Connection, ClientCommands.Info))),
        (RespCommand.Config, Define("CONFIG", 2, Any, None, CommandKeys.None, ReplyUnknown,
            Sub("config|get", 3, Any, Admin | Connection, ConfigCommand.Get))),
        (RespCommand.Multi, Define("MULTI", 1, 1, Connection | Fast | AllowBusy, CommandKeys.None, TransactionCommands.Multi)),
        (RespCommand.Exec, Define("EXEC", 1, 1, Connection, CommandKeys.None, TransactionCommands.Exec)),
        (RespCommand.Discard, Define("DISCARD", 1, 1, Connection | Fast | AllowBusy, CommandKeys.None, TransactionCommands.Discard)),
        (RespCommand.Watch, Define("WATCH", 2, Any, Connection | Fast | AllowBusy, CommandKeys.All, TransactionCommands.Watch)),
        (RespCommand.Unwatch, Define("UNWATCH", 1, 1, Connection | Fast | AllowBusy, CommandKeys.None, TransactionCommands.Unwatch)),
        (RespCommand.Latency, Define("LATENCY", 2, Any, None, CommandKeys.None, ReplyUnknown,
            Sub("latency|latest", 2, 2, Admin | Connection, MonitoringCommands.Empty),
            Sub("latency|history", 3, 3, Admin | Connection, MonitoringCommands.Empty),
            Sub("latency|reset", 2, Any, Admin | Connection, MonitoringCommands.Zero),
            Sub("latency|graph", 3, 3, Admin | Connection, MonitoringCommands.NoSamples),
            Sub("latency|histogram", 2, Any, Admin | Connection, MonitoringCommands.EmptyMap),
            Sub("latency|doctor", 2, 2, Admin | Connection, MonitoringCommands.Doctor),
            Sub("latency|help", 2, 2, Loading | Stale, MonitoringCommands.LatencyHelp))),
        (RespCommand.Slowlog, Define("SLOWLOG", 2, Any, None, CommandKeys.None, ReplyUnknown,
            Sub("slowlog|get", 2, 3, Admin | Loading | Stale, MonitoringCommands.SlowlogGet),
            Sub("slowlog|len", 2, 2, Admin | Loading | Stale, MonitoringCommands.Zero),
            Sub("slowlog|reset", 2, 2, Admin | Loading | Stale, MonitoringCommands.Ok),
            Sub("slowlog|help", 2, 2, Loading | Stale, MonitoringCommands.SlowlogHelp))),
    ]);

    /// <summary>Every command's name, for the tests that check each one (the NOAUTH gate).</summary>
    public static IEnumerable<string> Names => Commands.Select(c => c.Name);

    /// <summary>Every command, in the table's order (COMMAND's).</summary>
    public static IEnumerable<CommandSpec> Commands => Specs.Skip(1);

    /// <summary>The command <paramref name="name"/> names, any case; <see cref="RespCommand.Unknown"/> if none. Allocates nothing.</summary>
    public static RespCommand Identify(ReadOnlySpan<byte> name)
    {
        for (int i = 1; i < Specs.Length; i++)
        {
            if (Ascii.EqualsIgnoreCase(name, Specs[i].Bytes))
            {
                return (RespCommand)i;
            }
        }

        return RespCommand.Unknown;
    }

    /// <summary>What <paramref name="command"/> is (its name is the upper-case form clients send).</summary>
    public static CommandSpec Of(RespCommand command) => Specs[(int)command];

    /// <summary>Runs the parsed command as <paramref name="command"/>, replying exactly once (an error reply included).</summary>
    /// <remarks>
    /// Between MULTI and EXEC, a command that passes these checks is queued and answered QUEUED; one that fails them
    /// is answered its error and makes EXEC abort, as in Redis (<see cref="ClientTransaction"/>).
    /// </remarks>
    public static void Execute(CommandContext context, RespCommand command)
    {
        CommandSpec spec = Specs[(int)command];
        int count = context.Arguments.Count;
        if (command == RespCommand.Unknown)
        {
            context.Transaction.Refused();
            ReplyUnknown(context);
            return;
        }

        if (spec.Subcommands.Length > 0 && count > 1)
        {
            if (spec.Subcommand(context.Arguments[1]) is not { } subcommand)
            {
                context.Transaction.Refused();
                context.Reply.Error($"ERR unknown subcommand '{Printable(context.Arguments[1])}'. Try {spec.Name} HELP.");
                return;
            }

            spec = subcommand;
        }

        if (count < spec.MinArgs || count > spec.MaxArgs)
        {
            context.Transaction.Refused();
            context.Reply.Error($"ERR wrong number of arguments for '{spec.LowerName}' command");
            return;
        }

        if (context.Transaction.Queues(command))
        {
            if (context.Transaction.TryQueue(command, context.Arguments))
            {
                context.Reply.SimpleString("QUEUED"u8);
            }
            else
            {
                context.Reply.Error($"ERR more than {ClientTransaction.MaxQueuedBytes} bytes queued in MULTI");
            }

            return;
        }

        context.Client.LastCommand = spec.LowerName;
        spec.Run(context);
    }

    /// <summary>
    /// <see cref="Execute"/>, where a storage failure answers this command with an error and is logged: the daemon and
    /// the other clients, and the other commands of an EXEC, carry on. A refusal at the descriptor limit is answered too,
    /// and only warned of (<see cref="DescriptorLimitWarning"/>).
    /// </summary>
    public static void Run(CommandContext context, RespCommand command)
    {
        try
        {
            Execute(context, command);
        }
        catch (Filters.DescriptorLimitException e)
        {
            // Expected back-pressure, not a storage failure: health stays as it is.
            context.DescriptorLimitWarning.Refused(context.Logger, e.Message);
            context.Reply.Error("ERR " + e.Message);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        {
            context.Metrics.Error(Telemetry.DaemonMetrics.Operation.Storage);
            Telemetry.Log.CommandStorageFailed(context.Logger, e);
            context.Reply.Error("ERR storage failure: " + e.Message);
        }
    }

    /// <summary>An argument for an error reply, which is one line of text: printable ASCII, long arguments cut short.</summary>
    public static string Printable(ReadOnlySpan<byte> bytes)
    {
        var text = new StringBuilder();
        foreach (byte b in bytes[..Math.Min(bytes.Length, 64)])
        {
            text.Append(b is >= 0x20 and < 0x7f and not (byte)'\'' ? (char)b : '?');
        }

        return text.ToString();
    }

    private static void ReplyUnknown(CommandContext context)
    {
        var message = new StringBuilder("ERR unknown command '").Append(Printable(context.Arguments[0])).Append("', with args beginning with: ");
        for (int i = 1; i < Math.Min(context.Arguments.Count, 4); i++)
        {
            message.Append('\'').Append(Printable(context.Arguments[i])).Append("' ");
        }

        context.Reply.Error(message.ToString());
    }

    /// <summary>The table indexed by command value; every value has exactly one entry.</summary>
    private static CommandSpec[] ByCommand((RespCommand Command, CommandSpec Spec)[] entries)
    {
        var specs = new CommandSpec[Enum.GetValues<RespCommand>().Length];
        foreach ((RespCommand command, CommandSpec spec) in entries)
        {
            specs[(int)command] = specs[(int)command] is null ? spec : throw new InvalidOperationException($"{command} is in the command table twice");
        }

        return Array.IndexOf(specs, null) is var missing and >= 0 ? throw new InvalidOperationException($"{(RespCommand)missing} is not in the command table") : specs;
    }

    private static CommandSpec Define(string name, int min, int max, CommandFlags flags, CommandKeys keys, Action<CommandContext> run, params CommandSpec[] subcommands) =>
        new(name, min, max, flags, keys, run, subcommands);

    private static CommandSpec Sub(string name, int min, int max, CommandFlags flags, Action<CommandContext> run) =>
        new(name, min, max, flags, CommandKeys.None, run, []);
}
