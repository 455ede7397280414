using System.Reflection;
using System.Text;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace EventFilter.Daemon.Commands;

/// <summary>The connection and server commands: PING, ECHO, QUIT, COMMAND and INFO.</summary>
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

    /// <summary>redis-cli asks for COMMAND DOCS at start for its hints; an empty array tells it there are none.</summary>
    public static void Command(CommandContext context) => context.Reply.ArrayHeader(0);

    public static void Info(CommandContext context)
    {
        HealthCheckResult health = context.Health.Now;
        var text = new StringBuilder()
            .Append("# Server\r\n")
            .Append("redis_version:").Append(RedisVersion).Append("\r\n")
            .Append("eventfilterd_version:").Append(DaemonVersion).Append("\r\n")
            .Append("process_id:").Append(Environment.ProcessId).Append("\r\n")
            .Append("log_sync:").Append(context.Options.LogSync.ToString().ToLowerInvariant()).Append("\r\n")
            .Append("\r\n# Health\r\n")
            .Append("health:").Append(health.Status.ToString().ToLowerInvariant()).Append("\r\n")
            .Append("health_reason:").Append(health.Description).Append("\r\n")
            .Append("\r\n# Keyspace\r\n")
            .Append("filters:").Append(context.Store.Count).Append("\r\n");
        context.Reply.VerbatimText(text.ToString());
    }
}
