using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// A start that fails for a known cause throws <see cref="StreamExistenceFilterStartException"/>: one line naming the
/// cause and what to do, and the exit code docs/operations.md documents for it ("Start-up failures").
/// </summary>
public sealed class StartFailureTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_data_directory_another_filter_holds_fails_start_with_exit_code_3_naming_it()
    {
        using var holder = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = _dir.Data, SizeBytes = 1 << 20 }, _log);
        holder.Open();
        using IHost host = TestHosts.Build(_dir, _log, _logs);

        var error = await Assert.ThrowsAsync<StreamExistenceFilterStartException>(() => host.StartAsync());

        Assert.Equal(3, error.ExitCode);
        Assert.IsType<FilterFileInUseException>(error.InnerException);
        Assert.Equal(
            $"The stream-existence filter's data directory '{_dir.Data}' is in use: '{_dir.FilterPath}' is open for writing by another process (or another filter in this one). "
            + "Stop that process (another server on this directory, or 'eventfilter repair'), or give this one a directory of its own (StreamExistenceFilter:DataDirectory).",
            error.Message);
        Assert.DoesNotContain('\n', error.Message);
        Assert.Null(Assert.Single(_logs.GetSnapshot(), r => r.Id.Id == 13).Exception);
    }

    [Fact]
    public async Task Without_an_IStreamNameLog_the_host_fails_to_start_saying_to_register_one()
    {
        HostApplicationBuilder builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { Configuration = new ConfigurationManager() });
        builder.Logging.ClearProviders();
        builder.Services.AddStreamExistenceFilter(o => (o.DataDirectory, o.StreamExistenceFilterSize) = (_dir.Data, "1MiB"));
        using IHost host = builder.Build();

        // Regression: DI's "Unable to resolve service for type 'EventFilter.IStreamNameLog'" said nothing of what to do.
        var error = await Assert.ThrowsAsync<StreamExistenceFilterStartException>(() => host.StartAsync());

        Assert.Equal(5, error.ExitCode);
        Assert.StartsWith("AddStreamExistenceFilter needs the host's log, and no IStreamNameLog is registered: register yours", error.Message, StringComparison.Ordinal);
        Assert.EndsWith("(docs/hosting-guide.md, step 2).", error.Message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(_dir.Data));
    }

    [Fact]
    public async Task An_add_from_a_service_registered_before_the_filter_fails_start_with_exit_code_5()
    {
        HostApplicationBuilder builder = TestHosts.Builder(_dir, _log, _logs);
        builder.Services.AddHostedService<AppenderRegisteredFirst>();
        builder.Services.AddStreamExistenceFilter(o => (o.DataDirectory, o.StreamExistenceFilterSize) = (_dir.Data, "1MiB"));
        using IHost host = builder.Build();

        var error = await Assert.ThrowsAsync<StreamExistenceFilterStartException>(() => host.StartAsync());

        Assert.Equal(5, error.ExitCode);
        Assert.StartsWith("IStreamExistenceFilter.Add was called before the filter was open: a service that appends started before it.", error.Message, StringComparison.Ordinal);
        Assert.IsType<InvalidOperationException>(error.InnerException);
    }

    [Fact]
    public async Task An_add_after_the_filter_opened_is_not_mistaken_for_one_before()
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs);
        await host.StartAsync();
        await host.Filter().WhenReady;

        host.Filter().Add("s", 1);

        Assert.True(host.Filter().MightExist("s"));
        await host.StopAsync();
    }

    /// <summary>The mistake the hosting guide's step 4 warns of: an appender that starts before the filter has opened.</summary>
    private sealed class AppenderRegisteredFirst(IStreamExistenceFilter filter) : IHostedService
    {
        public Task StartAsync(CancellationToken cancellationToken)
        {
            filter.Add("early", 1);
            return Task.CompletedTask;
        }

        public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    }
}
