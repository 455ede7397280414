using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// INFO as Redis monitoring reads it (docs/daemon.md, "INFO"): the sections and fields of redis_exporter's parse, numeric
/// where the exporter turns them into gauges and counters, the keyspace line in Redis's form, and INFO's section argument.
/// </summary>
public sealed partial class InfoFormatTests
{
    private static readonly string[] TextFields = ["redis_version", "redis_git_sha1", "redis_build_id", "redis_mode", "os", "run_id", "executable", "config_file",
        "eventfilterd_version", "log_sync", "used_memory_human", "used_memory_rss_human", "used_memory_peak_human", "maxmemory_human", "maxmemory_policy",
        "rdb_last_bgsave_status", "role", "db0", "health", "health_reason", "auth"];

    [Fact]
    public void Info_has_the_sections_and_fields_the_redis_exporter_reads()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--log-sync", "always");
        using RespClient client = daemon.Connect();
        client.Call("BF.ADD", "a", "1");
        client.Call("BF.ADD", "b", "1");
        client.Call("BF.MADD", "c", "1", "2", "3");

        var sections = InfoFields.Parse(Encoding.UTF8.GetString((byte[])client.Call("INFO", "ALL")!));
        Assert.Equal(["Server", "Clients", "Memory", "Persistence", "Stats", "Replication", "Keyspace", "Eventfilterd"], sections.Keys);
        foreach ((string field, string value) in sections.Where(s => s.Key != "Eventfilterd").SelectMany(s => s.Value).Where(f => !TextFields.Contains(f.Key)))
        {
            Assert.True(double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out _), $"{field}:{value} is not a number, and the exporter reads it as one");
        }

        Assert.Matches(@"^\d+\.\d+\.\d+$", sections["Server"]["redis_version"]);
        Assert.Equal(daemon.Id.ToString(CultureInfo.InvariantCulture), sections["Server"]["process_id"]);
        Assert.InRange(long.Parse(sections["Server"]["uptime_in_seconds"], CultureInfo.InvariantCulture), 0, 3600);
        Assert.Equal(40, sections["Server"]["run_id"].Length);
        // This client, and perhaps the start-up probe's connection if its close is not yet seen.
        Assert.InRange(long.Parse(sections["Clients"]["connected_clients"], CultureInfo.InvariantCulture), 1, 2);
        Assert.True(long.Parse(sections["Memory"]["used_memory"], CultureInfo.InvariantCulture) > 0);
        Assert.True(long.Parse(sections["Memory"]["used_memory_rss"], CultureInfo.InvariantCulture) > 0);
        long now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        Assert.InRange(long.Parse(sections["Persistence"]["rdb_last_save_time"], CultureInfo.InvariantCulture), now - 3600, now + 60);
        Assert.Equal("ok", sections["Persistence"]["rdb_last_bgsave_status"]);

        // Three adds and this INFO (the exporter's counter is cumulative): the INFO itself counts once it has run.
        Assert.Equal("3", sections["Stats"]["total_commands_processed"]);
        Assert.Equal("master", sections["Replication"]["role"]);
        Match keyspace = KeyspaceLine().Match(sections["Keyspace"]["db0"]);
        Assert.True(keyspace.Success, sections["Keyspace"]["db0"]);
        Assert.Equal("3", keyspace.Groups["keys"].Value);
        Assert.Equal("3", sections["Eventfilterd"]["filters"]);
        Assert.Equal("5", sections["Eventfilterd"]["items"]);

        var again = InfoFields.Parse(Encoding.UTF8.GetString((byte[])client.Call("INFO")!));
        Assert.Equal("4", again["Stats"]["total_commands_processed"]);
    }

    [Fact]
    public void Info_with_sections_answers_only_those_and_an_empty_keyspace_has_no_db0()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path);
        using RespClient client = daemon.Connect();
        var sections = InfoFields.Parse(Encoding.UTF8.GetString((byte[])client.Call("INFO", "server", "KEYSPACE")!));
        Assert.Equal(["Server", "Keyspace"], sections.Keys);
        Assert.Empty(sections["Keyspace"]);
        Assert.Empty(InfoFields.Parse(Encoding.UTF8.GetString((byte[])client.Call("INFO", "nosuchsection")!)));
    }

    /// <summary>The exporter's keyspace rule: keys, expires and avg_ttl as numbers.</summary>
    [GeneratedRegex(@"^keys=(?<keys>\d+),expires=(?<expires>\d+),avg_ttl=(?<ttl>\d+)$")]
    private static partial Regex KeyspaceLine();
}
