using System.Buffers.Text;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// HELLO [protover [AUTH username password] [SETNAME clientname]], as Redis 6 and later answer it: switches the
/// connection to RESP3 (3) or back to RESP2 (2), then describes the server as a map in the protocol now in use.
/// Without a version it only describes. Clients send it first: StackExchange.Redis on every connect, redis-cli -3.
/// There are no users: AUTH takes Redis's "default" user with the password of --requirepass-file (any password when
/// there is none, as Redis's passwordless default user) and refuses other names. With a password, a connection that
/// has not authenticated must authenticate in this HELLO, as Redis requires.
/// </summary>
internal static class HelloCommand
{
    public static void Run(CommandContext context)
    {
        var args = context.Arguments;
        int version = context.Reply.ProtocolVersion;
        if (args.Count > 1)
        {
            if (!Utf8Parser.TryParse(args[1], out long requested, out int used) || used != args[1].Length)
            {
                context.Reply.Error("ERR Protocol version is not an integer or out of range");
                return;
            }

            if (requested is not (2 or 3))
            {
                context.Reply.Error("NOPROTO unsupported protocol version");
                return;
            }

            version = (int)requested;
        }

        if (CheckOptions(context, out int nameAt) is { } error)
        {
            // Like Redis: a refused HELLO changes nothing, the protocol included.
            context.Reply.Error(error);
            return;
        }

        context.Reply.ProtocolVersion = version;
        if (nameAt > 0)
        {
            ClientCommands.Rename(context, context.Arguments[nameAt]);
        }

        context.Reply.MapHeader(7);
        context.Reply.Bulk("server"u8);
        context.Reply.Bulk("redis"u8);
        context.Reply.Bulk("version"u8);
        context.Reply.Bulk(ServerCommands.RedisVersion);
        context.Reply.Bulk("proto"u8);
        context.Reply.Integer(version);
        context.Reply.Bulk("id"u8);
        context.Reply.Integer(context.Client.Id);
        context.Reply.Bulk("mode"u8);
        context.Reply.Bulk("standalone"u8);
        context.Reply.Bulk("role"u8);
        context.Reply.Bulk("master"u8);
        context.Reply.Bulk("modules"u8);
        context.Reply.ArrayHeader(0);
    }

    /// <summary>Checks AUTH and SETNAME after the version; null when they are acceptable, with SETNAME's name at <paramref name="nameAt"/> (0 if none).</summary>
    private static string? CheckOptions(CommandContext context, out int nameAt)
    {
        var args = context.Arguments;
        nameAt = 0;
        for (int i = 2; i < args.Count; i++)
        {
            if (BloomArguments.Is(args[i], "AUTH"u8) && i + 2 < args.Count)
            {
                if (ServerCommands.TryAuthenticate(context, args[i + 1], args[i + 2]) is { } refused)
                {
                    return refused;
                }

                i += 2;
            }
            else if (BloomArguments.Is(args[i], "SETNAME"u8) && i + 1 < args.Count)
            {
                nameAt = ++i;
                if (ClientCommands.CheckName(args[i]) is { } refused)
                {
                    return refused;
                }
            }
            else
            {
                return $"ERR Syntax error in HELLO option '{CommandTable.Printable(args[i])}'";
            }
        }

        return context.Authenticated
            ? null
            : "NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time";
    }
}
