using System.Text;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// Every command eventfilterd knows, with its argument counts (the command name included), matched
/// case-insensitively. Arity and unknown-command errors use Redis's wording, which clients recognise.
/// </summary>
internal static class CommandTable
{
    private sealed record Command(string Name, byte[] Bytes, int MinArgs, int MaxArgs, Action<CommandContext> Run);

    private static readonly Command[] Commands =
    [
        Define("PING", 1, 2, ServerCommands.Ping),
        Define("ECHO", 2, 2, ServerCommands.Echo),
        Define("QUIT", 1, int.MaxValue, ServerCommands.Quit),
        Define("COMMAND", 1, int.MaxValue, ServerCommands.Command),
        Define("INFO", 1, int.MaxValue, ServerCommands.Info),
        Define("HELLO", 1, int.MaxValue, HelloCommand.Run),
        Define("AUTH", 2, 3, ServerCommands.Auth),
        Define("BF.RESERVE", 4, 7, BloomCommands.Reserve),
        Define("BF.ADD", 3, 3, BloomCommands.Add),
        Define("BF.MADD", 3, int.MaxValue, BloomCommands.Add),
        Define("BF.EXISTS", 3, 3, BloomQueries.Exists),
        Define("BF.MEXISTS", 3, int.MaxValue, BloomQueries.Exists),
        Define("BF.INFO", 2, 3, BloomQueries.Info),
        Define("BF.CARD", 2, 2, BloomQueries.Card),
        Define("BF.INSERT", 4, int.MaxValue, BloomInsert.Run),
        Define("BF.SCANDUMP", 3, 3, DumpCommands.ScanDump),
        Define("BF.LOADCHUNK", 4, 4, DumpCommands.LoadChunk),
        Define("DEL", 2, int.MaxValue, KeyCommands.Delete),
        Define("UNLINK", 2, int.MaxValue, KeyCommands.Delete),
        Define("EXISTS", 2, int.MaxValue, KeyCommands.Exists),
        Define("KEYS", 2, 2, KeyCommands.Keys),
        Define("SCAN", 2, int.MaxValue, KeyScan.Run),
        Define("FLUSHALL", 1, 2, KeyCommands.FlushAll),
    ];

    /// <summary>Every command's name, for the tests that check each one (the NOAUTH gate).</summary>
    public static IEnumerable<string> Names => Commands.Select(c => c.Name);

    /// <summary>Runs the parsed command, replying exactly once (an error reply included).</summary>
    public static void Execute(CommandContext context)
    {
        ReadOnlySpan<byte> name = context.Arguments[0];
        foreach (Command command in Commands)
        {
            if (System.Text.Ascii.EqualsIgnoreCase(name, command.Bytes))
            {
                int count = context.Arguments.Count;
                if (count < command.MinArgs || count > command.MaxArgs)
                {
                    context.Reply.Error($"ERR wrong number of arguments for '{command.Name.ToLowerInvariant()}' command");
                    return;
                }

                command.Run(context);
                return;
            }
        }

        context.Reply.Error(UnknownCommand(context));
    }

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

    private static Command Define(string name, int min, int max, Action<CommandContext> run) => new(name, Encoding.ASCII.GetBytes(name), min, max, run);
}
