using System.Diagnostics;
using System.Globalization;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// A stop that cannot finish exits non-zero, with one line, never 0 and never a stack trace (docs/daemon.md, "Starting
/// and stopping"), and the next start recovers what the stop could not make durable.
/// </summary>
public sealed class StopFailureTests
{
    private const int Filters = 40;

    [Fact]
    public void A_stop_out_of_descriptors_exits_6_and_the_next_start_has_every_item()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", "3600000"))
        {
            using (RespClient client = daemon.Connect())
            {
                for (int i = 0; i < Filters; i++)
                {
                    Assert.Equal(1L, client.Call("BF.ADD", $"held{i}", $"item{i}")); // no files until the stop's tick
                }
            }

            // The running daemon's limit, lowered to a little over what it holds: the stop's tick cannot open the new
            // filters' files (4 each), and the runtime keeps a few for itself (without any it aborts, "Out of memory.").
            int open = Directory.GetFileSystemEntries($"/proc/{daemon.Id}/fd").Length + 24;
            using (Process prlimit = Process.Start("prlimit", ["--pid", daemon.Id.ToString(CultureInfo.InvariantCulture), $"--nofile={open}:{open}"]))
            {
                prlimit.WaitForExit();
                Assert.Equal(0, prlimit.ExitCode);
            }

            daemon.Terminate();
            int? exit = daemon.WaitForExit(TimeSpan.FromSeconds(60));
            Assert.True(exit == 6, $"exit {exit}:\n{daemon.Output}");
            Assert.Contains("eventfilterd: the stop failed:", daemon.Output, StringComparison.Ordinal);
            Assert.DoesNotContain("   at ", daemon.Output, StringComparison.Ordinal);
        }

        using DaemonProcess restarted = DaemonProcess.Start(directory.Path);
        using RespClient reader = restarted.Connect();
        for (int i = 0; i < Filters; i++)
        {
            Assert.Equal(1L, reader.Call("BF.EXISTS", $"held{i}", $"item{i}"));
        }
    }
}
