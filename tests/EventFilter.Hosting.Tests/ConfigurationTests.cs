using EventFilter.Format;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace EventFilter.Hosting.Tests;

public sealed class ConfigurationTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Settings_come_from_appsettings_json()
    {
        string json = $$"""
            {
              "StreamExistenceFilter": {
                "DataDirectory": "{{_dir.Data.Replace("\\", "\\\\", StringComparison.Ordinal)}}",
                "StreamExistenceFilterSize": "1MiB",
                "CheckpointInterval": "00:00:05",
                "CorruptionThreshold": 0.1,
                "CatchUpCheckpointRecords": 500,
                "ExpectedStreams": 524288
              }
            }
            """;
        await File.WriteAllTextAsync(Path.Combine(_dir.Path, "appsettings.json"), json);
        HostApplicationBuilder builder = TestHosts.Builder(_dir, _log, _logs);
        builder.Services.AddStreamExistenceFilter(builder.Configuration.GetSection(TestHosts.Section));

        StreamExistenceFilterHostingOptions options = await StartAndStopAsync(builder, expectedSizeBytes: 1 << 20);
        Assert.Equal(TimeSpan.FromSeconds(5), options.CheckpointInterval);
        Assert.Equal(0.1, options.CorruptionThreshold);
        Assert.Equal(500, options.CatchUpCheckpointRecords);
        Assert.Equal(524_288, options.ExpectedStreams);

        // 2 bytes of the 1 MiB per expected stream: the new file was made with the k that suits it.
        using FilterFile file = FilterFile.Open(Path.Combine(_dir.Data, "stream-existence.filter"), new FilterFileOptions { SizeBytes = 1 << 20 });
        Assert.Equal(9, file.Header.K);
    }

    [Fact]
    public async Task Settings_come_from_environment_variables()
    {
        // A prefix of the test's own, so that no other test's host sees these variables.
        string prefix = $"EVENTFILTER_TEST_{Guid.NewGuid():N}_";
        (string Name, string Value)[] variables =
        [
            (prefix + "StreamExistenceFilter__DataDirectory", _dir.Data),
            (prefix + "StreamExistenceFilter__StreamExistenceFilterSize", "2MB"),
            (prefix + "StreamExistenceFilter__CheckpointInterval", "00:01:00"),
        ];
        try
        {
            foreach ((string name, string value) in variables)
            {
                Environment.SetEnvironmentVariable(name, value);
            }

            HostApplicationBuilder builder = TestHosts.Builder(_dir, _log, _logs);
            builder.Configuration.AddEnvironmentVariables(prefix);
            builder.Services.AddStreamExistenceFilter(builder.Configuration.GetSection(TestHosts.Section));

            StreamExistenceFilterHostingOptions options = await StartAndStopAsync(builder, expectedSizeBytes: 2_000_000);
            Assert.Equal(TimeSpan.FromMinutes(1), options.CheckpointInterval);
        }
        finally
        {
            foreach ((string name, _) in variables)
            {
                Environment.SetEnvironmentVariable(name, null);
            }
        }
    }

    [Fact]
    public async Task The_command_line_switch_sets_the_size()
    {
        string[] args = ["--stream-existence-filter-size", "15MB", "--StreamExistenceFilter:DataDirectory", _dir.Data];
        HostApplicationBuilder builder = TestHosts.Builder(_dir, _log, _logs, args);
        builder.Services.AddStreamExistenceFilter(builder.Configuration.GetSection(TestHosts.Section));

        await StartAndStopAsync(builder, expectedSizeBytes: 15_000_000);
    }

    [Fact]
    public async Task The_command_line_switch_wins_over_appsettings_json_and_over_code()
    {
        await File.WriteAllTextAsync(Path.Combine(_dir.Path, "appsettings.json"), """{ "StreamExistenceFilter": { "StreamExistenceFilterSize": "1MiB" } }""");
        string[] args = ["--stream-existence-filter-size=2MiB"];
        HostApplicationBuilder builder = TestHosts.Builder(_dir, _log, _logs, args);
        builder.Services.AddStreamExistenceFilter(builder.Configuration.GetSection(TestHosts.Section));
        builder.Services.AddStreamExistenceFilter(o => (o.DataDirectory, o.StreamExistenceFilterSize) = (_dir.Data, "4MiB"));

        await StartAndStopAsync(builder, expectedSizeBytes: 2 << 20);
    }

    [Fact]
    public async Task Repeated_calls_register_one_filter_that_is_also_the_hosted_service()
    {
        HostApplicationBuilder builder = TestHosts.Builder(_dir, _log, _logs);
        builder.Services.AddStreamExistenceFilter(o => o.DataDirectory = _dir.Path);
        builder.Services.AddStreamExistenceFilter(o => (o.DataDirectory, o.StreamExistenceFilterSize) = (_dir.Data, "1MiB"));
        using IHost host = builder.Build();

        IStreamExistenceFilter filter = host.Filter();
        IHostedService[] hosted = host.Services.GetServices<IHostedService>().Where(s => s is IStreamExistenceFilter).ToArray();
        Assert.Single(hosted);
        Assert.Same(filter, hosted[0]);
        Assert.Same(filter, host.Services.GetRequiredService<IStreamExistenceFilter>());
        Assert.Single(host.Services.GetServices<IValidateOptions<StreamExistenceFilterHostingOptions>>());

        // Later configuration wins, as with any options.
        Assert.Equal(_dir.Data, host.Services.GetRequiredService<IOptions<StreamExistenceFilterHostingOptions>>().Value.DataDirectory);
    }

    private async Task<StreamExistenceFilterHostingOptions> StartAndStopAsync(HostApplicationBuilder builder, long expectedSizeBytes)
    {
        using IHost host = builder.Build();
        await host.StartAsync();
        await host.Filter().WhenReady;
        Assert.Equal(FilterGeometry.FromFilterBits(expectedSizeBytes).FileLength, new FileInfo(_dir.FilterPath).Length);
        await host.StopAsync();
        return host.Services.GetRequiredService<IOptions<StreamExistenceFilterHostingOptions>>().Value;
    }
}
