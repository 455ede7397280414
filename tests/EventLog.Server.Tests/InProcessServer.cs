using EventFilter;
using EventLog.Server.Hosting;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace EventLog.Server.Tests;

/// <summary>
/// The real server, built by <see cref="ServerApp.Build"/> as the program builds it, on a free loopback port and a
/// temporary data directory, driven over real HTTP. Tests reach past HTTP only to check the log did not change.
/// </summary>
public sealed class InProcessServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private InProcessServer(WebApplication app, string dataDirectory)
    {
        _app = app;
        DataDirectory = dataDirectory;
        Address = new Uri(app.Urls.Single() + "/");
        Api = new EventsApi(Address);
    }

    public string DataDirectory { get; }

    public Uri Address { get; }

    public EventsApi Api { get; }

    /// <summary>The engine's durable end: the log's size. Unchanged means nothing was written.</summary>
    public long LogEnd => _app.Services.GetRequiredService<EngineHandle>().EndPosition;

    public IStreamExistenceFilter Filter => _app.Services.GetRequiredService<IStreamExistenceFilter>();

    /// <summary>The engine itself, for its internal fault seam.</summary>
    public EventLogEngine Engine => _app.Services.GetRequiredService<EngineHandle>().Engine;

    public static async Task<InProcessServer> StartAsync(string dataDirectory, params string[] extraArguments)
    {
        WebApplication app = ServerApp.Build(ServerArguments.For(dataDirectory, extraArguments));
        try
        {
            await app.StartAsync();
        }
        catch
        {
            await app.DisposeAsync();
            throw;
        }

        return new InProcessServer(app, dataDirectory);
    }

    /// <summary>Stops as Ctrl+C would: requests drain, appends stop, the filter checkpoints, the log closes.</summary>
    public Task StopAsync() => _app.StopAsync();

    public async ValueTask DisposeAsync()
    {
        Api.Dispose();
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
