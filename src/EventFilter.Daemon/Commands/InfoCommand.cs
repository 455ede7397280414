using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// INFO [section ...] in Redis's format: "# Section" lines, "field:value" lines, CRLF, a blank line between sections,
/// with the sections and fields Redis monitoring reads (Prometheus's redis_exporter, Redis dashboards) and one section
/// of our own, Eventfilterd. docs/daemon.md, "INFO", says which fields mean what Redis means and which are ours.
/// </summary>
internal static class InfoCommand
{
    /// <summary>
    /// Redis's run_id: 40 random hex characters, new at every start, so a monitor sees a restart. Not a secret, so not
    /// from the cryptographic generator, whose assembly a type initializer could fail to load (AssemblyPreload).
    /// </summary>
    private static readonly string RunId = NewRunId();

    private static readonly string[] Sections = ["server", "clients", "memory", "persistence", "stats", "replication", "keyspace", "eventfilterd"];

    private static long s_peakMemory;

    private static string NewRunId()
    {
        Span<byte> bytes = stackalloc byte[20];
        Random.Shared.NextBytes(bytes);
        return Convert.ToHexStringLower(bytes);
    }

    public static void Run(CommandContext context)
    {
        var text = new StringBuilder();
        foreach (string section in Sections)
        {
            if (Wanted(context.Arguments, section))
            {
                if (text.Length > 0)
                {
                    text.Append("\r\n");
                }

                Write(text, section, context);
            }
        }

        context.Reply.VerbatimText(text.ToString());
    }

    /// <summary>No argument, "default", "all" or "everything" asks for every section; otherwise the ones named, as Redis 7.</summary>
    private static bool Wanted(Protocol.CommandArguments args, string section)
    {
        if (args.Count == 1)
        {
            return true;
        }

        for (int i = 1; i < args.Count; i++)
        {
            string asked = Encoding.ASCII.GetString(args[i]).ToLowerInvariant();
            if (asked is "all" or "everything" or "default" || asked == section)
            {
                return true;
            }
        }

        return false;
    }

    private static void Write(StringBuilder text, string section, CommandContext context)
    {
        ServerTotals totals = context.Metrics.Totals;
        DaemonOptions options = context.Options;
        var info = new Fields(text);
        switch (section)
        {
            case "server":
                DateTimeOffset now = totals.Time.GetUtcNow();
                long uptime = (long)(now - totals.Started).TotalSeconds;
                text.Append("# Server\r\n");
                info.Add("redis_version", ServerCommands.RedisVersion).Add("redis_git_sha1", "00000000").Add("redis_git_dirty", 0)
                    .Add("redis_build_id", "0").Add("redis_mode", "standalone")
                    .Add("os", $"{(OperatingSystem.IsLinux() ? "Linux" : RuntimeInformation.OSDescription)} {Environment.OSVersion.Version} {RuntimeInformation.OSArchitecture.ToString().ToLowerInvariant()}")
                    .Add("arch_bits", IntPtr.Size * 8).Add("process_id", Environment.ProcessId).Add("run_id", RunId)
                    .Add("tcp_port", options.Port ?? 0).Add("server_time_usec", now.ToUnixTimeMilliseconds() * 1000)
                    .Add("uptime_in_seconds", uptime).Add("uptime_in_days", uptime / 86400)
                    .Add("executable", Environment.ProcessPath ?? "").Add("config_file", options.ConfigFile ?? "")
                    .Add("eventfilterd_version", ServerCommands.DaemonVersion).Add("log_sync", options.LogSync.ToString().ToLowerInvariant());
                break;
            case "clients":
                text.Append("# Clients\r\n");
                info.Add("connected_clients", context.Metrics.OpenConnections).Add("maxclients", options.MaxClients)
                    .Add("blocked_clients", 0).Add("tracking_clients", 0);
                break;
            case "memory":
                long heap = GC.GetTotalMemory(forceFullCollection: false);
                long used = heap + MappedBytes(context.Store);
                long peak = Peak(used);
                long rss = Environment.WorkingSet;
                text.Append("# Memory\r\n");
                info.Add("used_memory", used).Add("used_memory_human", Human(used)).Add("used_memory_rss", rss).Add("used_memory_rss_human", Human(rss))
                    .Add("used_memory_peak", peak).Add("used_memory_peak_human", Human(peak))
                    .Add("total_system_memory", GC.GetGCMemoryInfo().TotalAvailableMemoryBytes)
                    .Add("maxmemory", 0).Add("maxmemory_human", "0B").Add("maxmemory_policy", "noeviction")
                    .Add("mem_fragmentation_ratio", used > 0 ? Math.Round((double)rss / used, 2) : 0);
                break;
            case "persistence":
                text.Append("# Persistence\r\n");
                info.Add("loading", 0).Add("async_loading", 0).Add("rdb_changes_since_last_save", totals.ItemsAddedSinceSync)
                    .Add("rdb_bgsave_in_progress", 0).Add("rdb_last_save_time", totals.LastSyncUnixSeconds)
                    .Add("rdb_last_bgsave_status", totals.LastSyncFailed ? "err" : "ok").Add("aof_enabled", 0).Add("aof_rewrite_in_progress", 0);
                break;
            case "stats":
                text.Append("# Stats\r\n");
                info.Add("total_connections_received", totals.Connections).Add("total_commands_processed", totals.Commands)
                    .Add("instantaneous_ops_per_sec", totals.OpsPerSecond).Add("total_net_input_bytes", totals.BytesReceived)
                    .Add("total_net_output_bytes", totals.BytesSent).Add("rejected_connections", totals.Refused)
                    .Add("expired_keys", 0).Add("evicted_keys", 0).Add("acl_access_denied_auth", totals.AuthFailures);
                break;
            case "replication":
                text.Append("# Replication\r\n");
                info.Add("role", "master").Add("connected_slaves", 0);
                break;
            case "keyspace":
                text.Append("# Keyspace\r\n");

                // Redis lists only databases that hold keys; there is one, db0, holding the filters.
                if (context.Store.Count is > 0 and int keys)
                {
                    info.Add("db0", $"keys={keys},expires=0,avg_ttl=0");
                }

                break;
            default:
                HealthCheckResult health = context.Health.Now;
                NamedFilter[] filters = context.Store.Snapshot();
                text.Append("# Eventfilterd\r\n");
                info.Add("filters", filters.Length).Add("items", filters.Sum(f => f.Count)).Add("filter_bytes", MappedBytes(filters))
                    .Add("managed_heap_bytes", GC.GetTotalMemory(forceFullCollection: false))
                    .Add("health", health.Status.ToString().ToLowerInvariant()).Add("health_reason", health.Description ?? "")
                    .Add("auth", options.Password is null ? "none" : "password");
                break;
        }
    }

    private static long MappedBytes(FilterStore store) => MappedBytes(store.Snapshot());

    /// <summary>The filters' layer files, which are mapped into memory: the bulk of what the daemon holds.</summary>
    private static long MappedBytes(NamedFilter[] filters) => filters.Sum(f => f.Describe().SizeBytes);

    private static long Peak(long used)
    {
        long peak;
        while (used > (peak = Volatile.Read(ref s_peakMemory)) && Interlocked.CompareExchange(ref s_peakMemory, used, peak) != peak)
        {
        }

        return Math.Max(used, peak);
    }

    /// <summary>Redis's *_human form: 1.50M, 12.00K, 900B.</summary>
    private static string Human(long bytes)
    {
        string[] units = ["B", "K", "M", "G", "T"];
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < units.Length - 1)
        {
            value /= 1024;
            unit++;
        }

        return unit == 0 ? $"{bytes}B" : value.ToString("F2", CultureInfo.InvariantCulture) + units[unit];
    }

    /// <summary>Appends "name:value\r\n" lines, numbers in the invariant culture.</summary>
    private readonly struct Fields(StringBuilder text)
    {
        public Fields Add(string name, string value)
        {
            text.Append(name).Append(':').Append(value).Append("\r\n");
            return this;
        }

        public Fields Add(string name, long value) => Add(name, value.ToString(CultureInfo.InvariantCulture));

        public Fields Add(string name, double value) => Add(name, value.ToString(CultureInfo.InvariantCulture));
    }
}
