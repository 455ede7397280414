using System.Diagnostics;
using System.Globalization;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// A running daemon at its descriptor limit (docs/daemon.md, "Starting and stopping"): new filters, restores and layers
/// are refused with an error naming RLIMIT_NOFILE in both sync modes (periodic mode once acknowledged creates whose
/// files it could not open later: a pending filter counts as one on disk), adds that fit go on, the daemon keeps
/// answering, DEL frees an unfinished restore's descriptors, and a restart under the same limit opens everything
/// acknowledged. A refusal is back-pressure, not a storage failure: its error has no "storage failure" prefix (it had,
/// and each one logged an error and degraded health), it is warned of once a minute, and health stays as it was.
/// </summary>
public sealed class DescriptorLimitRunTests
{
    [Theory]
    [InlineData("always")]
    [InlineData("periodic")]
    public void New_filters_and_restores_are_refused_at_the_limit_while_adds_go_on_and_nothing_is_lost(string logSync)
    {
        using var directory = new TempDirectory();
        // Periodic ticks every 50 ms, so that pending filters get their files (and hold their descriptors) as the test
        // goes: a refusal checked while a tick opens them sees each counted once (DescriptorBudgetTests).
        string[] arguments = ["--log-sync", logSync, "--sync-interval-ms", logSync == "always" ? "3600000" : "50", "--max-clients", "16"];
        int made = 0;
        int limit;
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, arguments))
        {
            limit = Directory.GetFileSystemEntries($"/proc/{daemon.Id}/fd").Length + 200;
            using (Process prlimit = Process.Start("prlimit", ["--pid", daemon.Id.ToString(CultureInfo.InvariantCulture), $"--nofile={limit}:{limit}"]))
            {
                prlimit.WaitForExit();
                Assert.Equal(0, prlimit.ExitCode);
            }

            using RespClient client = daemon.Connect();
            object? reply;
            while ((reply = client.Call("BF.ADD", $"f{made}", "x")) is long)
            {
                made++;
                Assert.True(made < 200, "the limit never refused a filter");
            }

            Assert.True(made > 5, $"only {made} filters fit");
            Assert.Contains("RLIMIT_NOFILE", Assert.IsType<RespError>(reply).Message, StringComparison.Ordinal);
            Assert.StartsWith("ERR max number of file descriptors reached", Assert.IsType<RespError>(reply).Message, StringComparison.Ordinal);
            Assert.StartsWith("ERR max number of file descriptors reached", Assert.IsType<RespError>(client.Call("BF.RESERVE", "another", "0.01", "100")).Message, StringComparison.Ordinal);
            Assert.Equal(0L, client.Call("EXISTS", $"f{made}"));
            Assert.Equal(1L, client.Call("BF.ADD", "f0", "y")); // adds to existing filters go on

            // A full filter needs a new layer (3 descriptors): refused the same way once less than that is left, after
            // the items that fit. Less than a new filter's 4 is left now, so at most one more layer fits.
            RespError? growth = null;
            for (int round = 0; round < 8 && growth is null; round++)
            {
                object?[] answers = (object?[])client.Call([(object)"BF.MADD", "f1", .. Enumerable.Range(round * 100, 100).Select(i => (object)$"item{i}")])!;
                growth = answers[^1] as RespError;
            }

            Assert.StartsWith("ERR max number of file descriptors reached", Assert.IsType<RespError>(growth).Message, StringComparison.Ordinal);
            Assert.Equal("PONG", client.Call("PING"));
            string info = System.Text.Encoding.UTF8.GetString((byte[])client.Call("INFO", "eventfilterd")!);
            Assert.DoesNotContain("health:degraded", info, StringComparison.Ordinal);

            // A restore is refused the same way, and once one fits, DEL of its key frees its descriptors.
            object?[] first = (object?[])client.Call("BF.SCANDUMP", "f0", "0")!;
            Assert.Contains("RLIMIT_NOFILE", Assert.IsType<RespError>(client.Call("BF.LOADCHUNK", "copy", first[0]!, first[1]!)).Message, StringComparison.Ordinal);
            Assert.Equal(1L, client.Call("DEL", $"f{made - 1}"));
            made--;
            Assert.Equal("OK", client.Call("BF.LOADCHUNK", "copy", first[0]!, first[1]!));
            string filters = Path.Combine(directory.Path, "filters");
            Assert.Single(Directory.GetDirectories(filters, "*.restore-*"));
            Assert.Equal(0L, client.Call("DEL", "copy")); // an unfinished restore is no key, but goes with its files
            Assert.Empty(Directory.GetDirectories(filters, "*.restore-*"));
            Assert.Equal(1L, client.Call("BF.ADD", "another", "x"));
            daemon.Terminate();
            Assert.Equal(0, daemon.WaitForExit(Poll.Bound)); // with its output drained
            Assert.Single(daemon.Output.Split('\n'), line => line.Contains("DescriptorLimitRefused", StringComparison.Ordinal));
            Assert.DoesNotContain("CommandStorageFailed", daemon.Output, StringComparison.Ordinal);
        }

        // Under the same limit: what the daemon acknowledged, a start must open.
        using DaemonProcess restarted = DaemonProcess.StartUnderDescriptorLimit(directory.Path, limit, arguments);
        using RespClient reader = restarted.Connect();
        for (int i = 0; i < made; i++)
        {
            Assert.Equal(1L, reader.Call("BF.EXISTS", $"f{i}", "x"));
        }

        Assert.Equal(1L, reader.Call("BF.EXISTS", "f0", "y"));
        Assert.Equal(1L, reader.Call("BF.EXISTS", "f1", "item0"));
        Assert.Equal(1L, reader.Call("BF.EXISTS", "another", "x"));
        Assert.Equal(0L, reader.Call("EXISTS", "copy"));
    }
}
