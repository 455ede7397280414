using System.Text;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// Every command eventfilterd knows, with its argument counts (the command name included): <see cref="Identify"/> turns
/// a name, matched case-insensitively, into its <see cref="RespCommand"/>, and <see cref="Execute"/> checks the count
/// and runs the handler that value indexes (BF.ADD and BF.MADD have one each, so no handler reads the name). Arity and unknown-command errors use Redis's wording, which clients recognise.
/// </summary>
internal static class CommandTable
{
    private sealed record Spec(RespCommand Command, string Name, byte[] Bytes, int MinArgs, int MaxArgs, Action<CommandContext> Run);

    // Indexed by RespCommand (CommandTableTests checks that each entry sits at its value's index).
    private static readonly Spec[] Specs =
    [
        Define(RespCommand.Unknown, "", 0, int.MaxValue, ReplyUnknown),
        Define(RespCommand.Ping, "PING", 1, 2, ServerCommands.Ping),
        Define(RespCommand.Echo, "ECHO", 2, 2, ServerCommands.Echo),
        Define(RespCommand.Quit, "QUIT", 1, int.MaxValue, ServerCommands.Quit),
        Define(RespCommand.Command, "COMMAND", 1, int.MaxValue, ServerCommands.Command),
        Define(RespCommand.Info, "INFO", 1, int.MaxValue, InfoCommand.Run),
        Define(RespCommand.Hello, "HELLO", 1, int.MaxValue, HelloCommand.Run),
        Define(RespCommand.Auth, "AUTH", 2, 3, ServerCommands.Auth),
        Define(RespCommand.BfReserve, "BF.RESERVE", 4, 7, BloomCommands.Reserve),
        Define(RespCommand.BfAdd, "BF.ADD", 3, 3, BloomCommands.Add),
        Define(RespCommand.BfMadd, "BF.MADD", 3, int.MaxValue, BloomCommands.MultiAdd),
        Define(RespCommand.BfExists, "BF.EXISTS", 3, 3, BloomQueries.Exists),
        Define(RespCommand.BfMexists, "BF.MEXISTS", 3, int.MaxValue, BloomQueries.MultiExists),
        Define(RespCommand.BfInfo, "BF.INFO", 2, 3, BloomQueries.Info),
        Define(RespCommand.BfCard, "BF.CARD", 2, 2, BloomQueries.Card),
        Define(RespCommand.BfInsert, "BF.INSERT", 4, int.MaxValue, BloomInsert.Run),
        Define(RespCommand.BfScanDump, "BF.SCANDUMP", 3, 3, DumpCommands.ScanDump),
        Define(RespCommand.BfLoadChunk, "BF.LOADCHUNK", 4, 4, DumpCommands.LoadChunk),
        Define(RespCommand.Del, "DEL", 2, int.MaxValue, KeyCommands.Delete),
        Define(RespCommand.Unlink, "UNLINK", 2, int.MaxValue, KeyCommands.Delete),
        Define(RespCommand.Exists, "EXISTS", 2, int.MaxValue, KeyCommands.Exists),
        Define(RespCommand.Keys, "KEYS", 2, 2, KeyCommands.Keys),
        Define(RespCommand.Scan, "SCAN", 2, int.MaxValue, KeyScan.Run),
        Define(RespCommand.FlushAll, "FLUSHALL", 1, 2, KeyCommands.FlushAll),
    ];

    /// <summary>Every command's name, for the tests that check each one (the NOAUTH gate).</summary>
    public static IEnumerable<string> Names => Specs.Skip(1).Select(c => c.Name);

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

    /// <summary>The name <paramref name="command"/> is reported by (its upper-case form).</summary>
    public static string NameOf(RespCommand command) => Specs[(int)command].Name;

    /// <summary>Runs the parsed command as <paramref name="command"/>, replying exactly once (an error reply included).</summary>
    public static void Execute(CommandContext context, RespCommand command)
    {
        Spec spec = Specs[(int)command];
        int count = context.Arguments.Count;
        if (count < spec.MinArgs || count > spec.MaxArgs)
        {
            context.Reply.Error($"ERR wrong number of arguments for '{spec.Name.ToLowerInvariant()}' command");
            return;
        }

        spec.Run(context);
    }

    private static void ReplyUnknown(CommandContext context) => context.Reply.Error(UnknownCommand(context));

    private static string UnknownCommand(CommandContext context)
    {
        var message = new StringBuilder("ERR unknown command '").Append(Printable(context.Arguments[0])).Append("', with args beginning with: ");
        for (int i = 1; i < Math.Min(context.Arguments.Count, 4); i++)
        {
            message.Append('\'').Append(Printable(context.Arguments[i])).Append("' ");
        }

        return message.ToString();
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

    private static Spec Define(RespCommand command, string name, int min, int max, Action<CommandContext> run) =>
        new(command, name, Encoding.ASCII.GetBytes(name), min, max, run);
}
