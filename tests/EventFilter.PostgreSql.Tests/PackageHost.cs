using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.PostgreSql.Tests;

/// <summary>
/// A process's worth of host, as a user puts it together: the hosted filter and the package over one database, in a
/// data directory of its own. Several over one database are several processes over one table.
/// </summary>
internal sealed class PackageHost : IAsyncDisposable
{
    private readonly IHost _host;
    private bool _stopped;

    private PackageHost(IHost host) => _host = host;

    public IServiceProvider Services => _host.Services;

    public IStreamExistenceFilter Filter => Services.GetRequiredService<IStreamExistenceFilter>();

    public IFilterReadPosition ReadPosition => Services.GetRequiredService<IFilterReadPosition>();

    public PostgreSqlAppender Appender => Services.GetRequiredService<PostgreSqlAppender>();

    /// <summary>Builds the host; <paramref name="configure"/> sets the package's options after the connection string, <paramref name="services"/> adds or replaces services.</summary>
    public static IHost Build(string connectionString, string dataDirectory, Action<PostgreSqlStreamLogOptions>? configure = null, Action<IServiceCollection>? services = null)
    {
        HostApplicationBuilder builder = Host.CreateApplicationBuilder();
        builder.Logging.ClearProviders().SetMinimumLevel(LogLevel.Warning);
        builder.Services.AddStreamExistenceFilter(options =>
        {
            options.DataDirectory = dataDirectory;
            options.StreamExistenceFilterSize = "1MB";
        });
        builder.Services.AddPostgreSqlStreamLog(options =>
        {
            options.ConnectionString = connectionString;
            configure?.Invoke(options);
        });
        services?.Invoke(builder.Services);
        return builder.Build();
    }

    /// <summary>Builds and starts it, and waits until its filter has caught up.</summary>
    public static async Task<PackageHost> StartAsync(string connectionString, string dataDirectory, Action<PostgreSqlStreamLogOptions>? configure = null, Action<IServiceCollection>? services = null)
    {
        var host = new PackageHost(Build(connectionString, dataDirectory, configure, services));
        await host._host.StartAsync();
        await host.Filter.WhenReady.WaitAsync(Poll.Bound);
        return host;
    }

    /// <summary>Appends one row of a new stream through the appender; returns its position.</summary>
    public Task<long> AppendAsync(string stream) => AppendAsyncThen(stream, () => { });

    /// <summary>Inserts one row of a new stream and adds it, then runs <paramref name="then"/> before the commit.</summary>
    public Task<long> AppendAsyncThen(string stream, Action then) => Appender.AppendAsync(async (append, cancel) =>
    {
        await using var insert = append.CreateCommand("insert into events (stream_id, version, type, data) values ($1, 0, 'Appended', '{}') returning global_position");
        insert.Parameters.Add(new() { Value = stream });
        long position = (long)(await insert.ExecuteScalarAsync(cancel))!;
        append.Added(stream, position);
        then();
        return position;
    });

    /// <summary>Stops the host (the filter, then the package's service); disposing it afterwards only disposes.</summary>
    public Task StopAsync()
    {
        _stopped = true;
        return _host.StopAsync();
    }

    public async ValueTask DisposeAsync()
    {
        if (!_stopped)
        {
            await _host.StopAsync();
        }

        _host.Dispose();
    }
}
