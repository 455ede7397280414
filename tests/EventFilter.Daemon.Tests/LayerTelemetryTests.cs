using System.Diagnostics.Metrics;
using System.Text;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Diagnostics.Metrics.Testing;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Testing;
using Microsoft.Extensions.Time.Testing;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Layer files report through EventFilter.Hosting's observer: its event ids and EventNames under the category EventFilter,
/// its instruments on the meter EventFilter; damage also counts in eventfilterd.errors and degrades health
/// (docs/daemon.md, "Telemetry").
/// </summary>
public sealed class LayerTelemetryTests
{
    [Fact]
    public void Damage_is_logged_and_measured_as_the_hosting_package_does_and_degrades_health()
    {
        var logs = new FakeLogCollector();
        using ServiceProvider services = TelemetryTests.DaemonServices(new FakeTimeProvider(), logs);
        var factory = services.GetRequiredService<IMeterFactory>();
        using var corrupted = new MetricCollector<long>(factory, "EventFilter", "eventfilter.lines.corrupted");
        using var errors = new MetricCollector<long>(factory, DaemonMetrics.MeterName, "eventfilterd.errors");
        var health = services.GetRequiredService<DaemonHealth>();
        health.SetListening(true);
        var observer = services.GetRequiredService<LayerObserver>();

        observer.Opened("k61/layer-000.filter", created: false, new VerificationResult(1000, 2, 2, 2, [3, 9], 0.05));

        FakeLogRecord damage = Assert.Single(logs.GetSnapshot(), r => r.Id.Id == 3);
        Assert.Equal(("EventFilter", "CorruptedLines", LogLevel.Warning), (damage.Category, damage.Id.Name, damage.Level));
        Assert.Equal(2, corrupted.LastMeasurement?.Value);
        Assert.Equal("verify", errors.LastMeasurement?.Tags["eventfilterd.operation"]);
        Assert.Equal(HealthStatus.Degraded, health.Now.Status);
    }

    [Fact]
    public void A_new_layer_is_logged_at_debug_and_is_no_error()
    {
        var logs = new FakeLogCollector();
        using ServiceProvider services = TelemetryTests.DaemonServices(new FakeTimeProvider(), logs);
        using var errors = new MetricCollector<long>(services.GetRequiredService<IMeterFactory>(), DaemonMetrics.MeterName, "eventfilterd.errors");
        var health = services.GetRequiredService<DaemonHealth>();
        health.SetListening(true);
        var observer = services.GetRequiredService<LayerObserver>();

        observer.RebuildStarted("k61/layer-001.filter", RebuildReason.Missing, "there is no filter file");
        observer.Opened("k61/layer-001.filter", created: true, new VerificationResult(1000, 0, 0, 0, [], 0.05));

        Assert.Equal([(19, LogLevel.Debug), (2, LogLevel.Debug)], logs.GetSnapshot().Where(r => r.Category == "EventFilter").Select(r => (r.Id.Id, r.Level)));
        Assert.Empty(errors.GetMeasurementSnapshot());
        Assert.Equal(HealthStatus.Healthy, health.Now.Status);
    }

    [Fact]
    public void A_corrupted_line_in_a_layer_file_is_reported_by_the_daemon_with_the_hosting_event_and_degraded_health()
    {
        using var directory = new TempDirectory();
        object[] items = [.. Enumerable.Range(0, 100).Select(i => (object)$"c{i}")];
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            using RespClient client = daemon.Connect();
            client.Call("BF.RESERVE", "damaged", "0.01", "100000");
            client.Call(["BF.MADD", "damaged", .. items]);
            Assert.Equal(0, daemon.Stop());
        }

        // Flip one bit of the first data line (after the 64-byte header): one mismatched line of about 1,900, repaired.
        string layer = Directory.GetFiles(directory.Path, "layer-000.filter", SearchOption.AllDirectories).Single();
        byte[] bytes = File.ReadAllBytes(layer);
        bytes[64] ^= 1;
        File.WriteAllBytes(layer, bytes);

        using DaemonProcess again = DaemonProcess.Start(directory.Path);
        using RespClient reader = again.Connect();
        Assert.All((object?[])reader.Call(["BF.MEXISTS", "damaged", .. items])!, a => Assert.Equal(1L, a));
        string info = Encoding.UTF8.GetString((byte[])reader.Call("INFO")!);
        Assert.Contains("health:degraded\r\nhealth_reason:verify failed at ", info, StringComparison.Ordinal);
        // Logged before the daemon listened; its standard output reaches the test asynchronously.
        Poll.Until(() => again.Output.Contains(" warn EventFilter[3 CorruptedLines] ", StringComparison.Ordinal), "the hosting package's warning");
    }
}
