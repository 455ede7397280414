using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// COMMAND, COMMAND COUNT, INFO, DOCS and LIST, as Redis 7 answers them: an entry per command of ten elements (name,
/// arity, flags, first key, last key, step, ACL categories, tips, key specifications, subcommands) from the command
/// table, with Redis 7.0's types (in RESP3 the flags, categories, tips, key specifications and subcommands are sets).
/// There are no ACLs, tips or key specifications here, so those are empty; DOCS answers an empty map.
/// </summary>
internal static class CommandIntrospection
{
    private static readonly (CommandFlags Flag, byte[] Name)[] FlagNames =
    [
        (CommandFlags.Write, "write"u8.ToArray()),
        (CommandFlags.ReadOnly, "readonly"u8.ToArray()),
        (CommandFlags.DenyOom, "denyoom"u8.ToArray()),
        (CommandFlags.Admin, "admin"u8.ToArray()),
        (CommandFlags.NoScript, "noscript"u8.ToArray()),
        (CommandFlags.Loading, "loading"u8.ToArray()),
        (CommandFlags.Stale, "stale"u8.ToArray()),
        (CommandFlags.Fast, "fast"u8.ToArray()),
        (CommandFlags.NoAuth, "no_auth"u8.ToArray()),
        (CommandFlags.AllowBusy, "allow_busy"u8.ToArray()),
    ];

    /// <summary>COMMAND: every command's entry.</summary>
    public static void All(CommandContext context)
    {
        CommandSpec[] commands = [.. CommandTable.Commands];
        context.Reply.ArrayHeader(commands.Length);
        foreach (CommandSpec command in commands)
        {
            Entry(context.Reply, command);
        }
    }

    /// <summary>COMMAND COUNT</summary>
    public static void Count(CommandContext context) => context.Reply.Integer(CommandTable.Commands.Count());

    /// <summary>COMMAND INFO [name ...]: an entry per name (<c>container|sub</c> for a subcommand), null for an unknown one; every command without names.</summary>
    public static void Info(CommandContext context)
    {
        var args = context.Arguments;
        if (args.Count == 2)
        {
            All(context);
            return;
        }

        context.Reply.ArrayHeader(args.Count - 2);
        for (int i = 2; i < args.Count; i++)
        {
            if (Find(args[i]) is { } command)
            {
                Entry(context.Reply, command);
            }
            else
            {
                context.Reply.Null();
            }
        }
    }

    /// <summary>COMMAND DOCS [name ...]: no documentation is kept, so an empty map (redis-cli reads it for its hints).</summary>
    public static void Docs(CommandContext context) => context.Reply.MapHeader(0);

    /// <summary>COMMAND LIST: every command's name and every subcommand's.</summary>
    public static void List(CommandContext context)
    {
        string[] names = [.. CommandTable.Commands.SelectMany(c => c.Subcommands.Prepend(c)).Select(c => c.LowerName)];
        context.Reply.ArrayHeader(names.Length);
        foreach (string name in names)
        {
            context.Reply.Bulk(name);
        }
    }

    private static CommandSpec? Find(ReadOnlySpan<byte> name)
    {
        int bar = name.IndexOf((byte)'|');
        RespCommand command = CommandTable.Identify(bar < 0 ? name : name[..bar]);
        if (command == RespCommand.Unknown)
        {
            return null;
        }

        CommandSpec spec = CommandTable.Of(command);
        return bar < 0 ? spec : spec.Subcommand(name[(bar + 1)..]);
    }

    private static void Entry(RespWriter reply, CommandSpec command)
    {
        (int first, int last, int step) = command.KeyPositions;
        reply.ArrayHeader(10);
        reply.Bulk(command.LowerName);
        reply.Integer(command.Arity);
        reply.SetHeader(FlagNames.Count(f => command.Flags.HasFlag(f.Flag)));
        foreach ((CommandFlags flag, byte[] name) in FlagNames)
        {
            if (command.Flags.HasFlag(flag))
            {
                reply.SimpleString(name);
            }
        }

        reply.Integer(first);
        reply.Integer(last);
        reply.Integer(step);
        reply.SetHeader(0); // ACL categories: there are no ACLs
        reply.SetHeader(0); // tips
        reply.SetHeader(0); // key specifications
        reply.SetHeader(command.Subcommands.Length);
        foreach (CommandSpec subcommand in command.Subcommands)
        {
            Entry(reply, subcommand);
        }
    }
}
