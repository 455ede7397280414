using System.Globalization;
using System.Net;

namespace EventLog.Server.Tests;

/// <summary>
/// GET /metrics from the real server, parsed as the Prometheus text format a scraper reads. OpenTelemetry subscribes
/// to meters by name, process-wide, so another in-process server's "EventFilter" meter would be counted here too:
/// this class runs alone (in production a server is its own process).
/// </summary>
[Collection(nameof(MetricsEndpointTests))]
public sealed class MetricsEndpointTests : IAsyncLifetime
{
    private readonly TempDirectory _directory = new();
    private InProcessServer _server = null!;

    public async Task InitializeAsync()
    {
        _server = await InProcessServer.StartAsync(_directory.Path);
        await _server.Api.WaitForFilterReadyAsync();
    }

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync();
        _directory.Dispose();
    }

    [Fact]
    public async Task The_scrape_has_every_meter_and_the_adds_counter_rises_by_exactly_the_new_streams_appended()
    {
        Dictionary<string, double> before = await ScrapeAsync();
        const int NewStreams = 37;
        for (int i = 0; i < NewStreams; i++)
        {
            ApiResponse created = await _server.Api.AppendAsync($"metrics-stream-{i}", "no-stream", EventsApi.OneEvent("Created", "{}"));
            Assert.Equal(HttpStatusCode.Created, created.Status);
        }

        Dictionary<string, double> after = await ScrapeAsync();

        Assert.Equal(NewStreams, after["eventfilter_adds_total"] - before.GetValueOrDefault("eventfilter_adds_total"));
        Assert.Equal(NewStreams, after["eventlog_appends_total"] - before.GetValueOrDefault("eventlog_appends_total"));
        Assert.Contains(after.Keys, name => name.StartsWith("eventfilter_checkpoint_position", StringComparison.Ordinal));
        Assert.Contains(after.Keys, name => name.StartsWith("eventlog_fsyncs", StringComparison.Ordinal));
        Assert.Contains(after.Keys, name => name.StartsWith("http_server_request_duration_seconds", StringComparison.Ordinal));
        Assert.Contains(after.Keys, name => name.StartsWith("dotnet_", StringComparison.Ordinal));
    }

    /// <summary>Each metric name (labels dropped) with the sum of its samples: what the assertions need of a scrape.</summary>
    private async Task<Dictionary<string, double>> ScrapeAsync()
    {
        ApiResponse scrape = await _server.Api.SendAsync(HttpMethod.Get, "metrics");
        Assert.Equal(HttpStatusCode.OK, scrape.Status);
        Assert.Equal("text/plain", scrape.MediaType);
        var samples = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (string line in scrape.Body.Split('\n'))
        {
            if (line.Length == 0 || line.StartsWith('#'))
            {
                continue;
            }

            // name{labels} value [timestamp]; label values may hold spaces, so the value follows the closing brace.
            int brace = line.IndexOf('{', StringComparison.Ordinal);
            int valueStart = brace >= 0 ? line.IndexOf("} ", brace, StringComparison.Ordinal) + 2 : line.IndexOf(' ', StringComparison.Ordinal) + 1;
            string name = line[..(brace >= 0 ? brace : valueStart - 1)];
            string value = line[valueStart..].Split(' ')[0];
            samples[name] = samples.GetValueOrDefault(name) + double.Parse(value, NumberStyles.Float, CultureInfo.InvariantCulture);
        }

        return samples;
    }
}

/// <summary>The collection <see cref="MetricsEndpointTests"/> runs in: alone, after the parallel ones.</summary>
[CollectionDefinition(nameof(MetricsEndpointTests), DisableParallelization = true)]
public sealed class MetricsEndpointCollection;
