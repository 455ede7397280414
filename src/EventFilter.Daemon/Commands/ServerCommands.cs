using System.Reflection;

namespace EventFilter.Daemon.Commands;

/// <summary>The connection and server commands: PING, ECHO, QUIT, SELECT and AUTH.</summary>
internal static class ServerCommands
{
    /// <summary>The Redis version eventfilterd reports (INFO, HELLO): clients enable features by it, and these are Redis 7's.</summary>
    public const string RedisVersion = "7.0.0";

    /// <summary>The version from git, as the packages and `eventfilter --version` show it (the assembly version is 0.0.0.0).</summary>
    public static readonly string DaemonVersion = typeof(ServerCommands).Assembly
        .GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "unknown";

    public static void Ping(CommandContext context)
    {
        if (context.Arguments.Count == 2)
        {
            context.Reply.Bulk(context.Arguments[1]);
        }
        else
        {
            context.Reply.SimpleString("PONG"u8);
        }
    }

    public static void Echo(CommandContext context) => context.Reply.Bulk(context.Arguments[1]);

    public static void Quit(CommandContext context)
    {
        context.Reply.Ok();
        context.CloseAfterReply = true;
    }

    /// <summary>SELECT index: there is one database, as in Redis with <c>databases 1</c>.</summary>
    public static void Select(CommandContext context)
    {
        ReadOnlySpan<byte> index = context.Arguments[1];
        if (!System.Buffers.Text.Utf8Parser.TryParse(index, out long database, out int used) || used != index.Length)
        {
            context.Reply.Error("ERR value is not an integer or out of range");
        }
        else if (database != 0)
        {
            context.Reply.Error("ERR DB index is out of range");
        }
        else
        {
            context.Reply.Ok();
        }
    }

    /// <summary>
    /// AUTH password, or AUTH default password, as Redis answers them: OK and the connection is authenticated, or
    /// WRONGPASS and it stays as it was (a connection that had authenticated stays so). Without --requirepass-file,
    /// Redis's default user has no password: AUTH default with any password is OK, AUTH with one argument an error.
    /// </summary>
    public static void Auth(CommandContext context)
    {
        var args = context.Arguments;
        if (args.Count == 2 && context.Options.Password is null)
        {
            context.Reply.Error("ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?");
            return;
        }

        if (TryAuthenticate(context, args.Count == 3 ? args[1] : "default"u8, args[^1]) is { } error)
        {
            context.Reply.Error(error);
            return;
        }

        context.Reply.Ok();
    }

    /// <summary>
    /// Checks a user and password (AUTH, HELLO AUTH) and authenticates the connection when they are right; otherwise
    /// counts the failure and returns Redis's error. Neither is logged: a log line per guess would let a client flood
    /// the log, and the password must never reach it.
    /// </summary>
    public static string? TryAuthenticate(CommandContext context, ReadOnlySpan<byte> user, ReadOnlySpan<byte> password)
    {
        bool right = user.SequenceEqual("default"u8) && (context.Options.Password is not { } expected || expected.Matches(password));
        if (!right)
        {
            context.Metrics.AuthFailed();
            return "WRONGPASS invalid username-password pair or user is disabled.";
        }

        context.Authenticated = true;
        return null;
    }

    /// <summary>What a connection may send before it has authenticated, as in Redis: AUTH, HELLO (which can carry AUTH) and QUIT.</summary>
    public static bool AllowedBeforeAuth(RespCommand command) => command is RespCommand.Auth or RespCommand.Hello or RespCommand.Quit;
}
