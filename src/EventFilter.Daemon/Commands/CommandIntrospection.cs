using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// COMMAND, COMMAND COUNT, INFO, DOCS and LIST, as Redis 7 answers them: an entry per command of ten elements (name,
/// arity, flags, first key, last key, step, ACL categories, tips, key specifications, subcommands) from the command
/// table, with Redis 7.0's types (in RESP3 the flags, categories, tips, key specifications and subcommands are sets).
/// There are no ACLs, tips or key specifications here, so those are empty. DOCS answers <see cref="CommandDocs"/>.
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

    /// <summary>
    /// COMMAND DOCS [name ...]: a map of each command named (<c>container|sub</c> for a subcommand; unknown names are
    /// left out), or of every command, to its documentation (<see cref="CommandDocs"/>): redis-cli builds HELP and
    /// its hints from it.
    /// </summary>
    public static void Docs(CommandContext context)
    {
        var args = context.Arguments;
        var commands = new List<CommandSpec>();
        for (int i = 2; i < args.Count; i++)
        {
            if (Find(args[i]) is { } command)
            {
                commands.Add(command);
            }
        }

        if (args.Count == 2)
        {
            commands.AddRange(CommandTable.Commands);
        }

        context.Reply.MapHeader(commands.Count);
        foreach (CommandSpec command in commands)
        {
            context.Reply.Bulk(command.LowerName);
            Doc(context.Reply, command);
        }
    }

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

    private static void Doc(RespWriter reply, CommandSpec command)
    {
        CommandDocs.Doc doc = CommandDocs.Of(command) ?? throw new InvalidOperationException($"{command.Name} has no documentation");
        reply.MapHeader(3 + (doc.Module is null ? 0 : 1) + (doc.Arguments.Length > 0 ? 1 : 0) + (command.Subcommands.Length > 0 ? 1 : 0));
        reply.Bulk("summary");
        reply.Bulk(doc.Summary);
        reply.Bulk("since");
        reply.Bulk(doc.Since);
        reply.Bulk("group");
        reply.Bulk(doc.Group);
        if (doc.Module is { } module)
        {
            reply.Bulk("module");
            reply.Bulk(module);
        }

        if (doc.Arguments.Length > 0)
        {
            reply.Bulk("arguments");
            Arguments(reply, doc.Arguments);
        }

        if (command.Subcommands.Length > 0)
        {
            reply.Bulk("subcommands");
            reply.MapHeader(command.Subcommands.Length);
            foreach (CommandSpec subcommand in command.Subcommands)
            {
                reply.Bulk(subcommand.LowerName);
                Doc(reply, subcommand);
            }
        }
    }

    /// <summary>
    /// Redis 7.0's argument maps, as 7.0.15 sends them: name, type, token, flags, and the arguments of a oneof or a
    /// block. No key_spec_index: COMMAND INFO reports no key specifications.
    /// </summary>
    private static void Arguments(RespWriter reply, CommandArgument[] arguments)
    {
        reply.ArrayHeader(arguments.Length);
        foreach (CommandArgument argument in arguments)
        {
            bool nested = argument.Arguments.Length > 0;
            int flags = (argument.Optional ? 1 : 0) + (argument.Multiple ? 1 : 0);
            reply.MapHeader(2 + (nested ? 1 : 0) + (argument.Token is null ? 0 : 1) + (flags > 0 ? 1 : 0));
            reply.Bulk("name");
            reply.Bulk(argument.Name);
            reply.Bulk("type");
            reply.Bulk(argument.Type);
            if (argument.Token is { } token)
            {
                reply.Bulk("token");
                reply.Bulk(token);
            }

            if (flags > 0)
            {
                reply.Bulk("flags");
                reply.SetHeader(flags);
                if (argument.Optional)
                {
                    reply.SimpleString("optional"u8);
                }

                if (argument.Multiple)
                {
                    reply.SimpleString("multiple"u8);
                }
            }

            if (nested)
            {
                reply.Bulk("arguments");
                Arguments(reply, argument.Arguments);
            }
        }
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
