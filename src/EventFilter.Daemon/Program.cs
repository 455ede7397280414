using EventFilter;
using EventFilter.Daemon;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Server;
using EventFilter.Daemon.Telemetry;
using EventFilter.Durability;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

// eventfilterd: named Bloom filters over a Unix socket in RESP2 with RedisBloom's BF.* commands. See docs/daemon.md.
DaemonOptions options;
try
{
    options = DaemonOptions.Parse(args);
}
catch (ArgumentException e)
{
    Console.Error.WriteLine($"eventfilterd: {e.Message}");
    return 2;
}

using DataDirectoryLock? directoryLock = DataDirectoryLock.TryAcquire(options.DataDirectory, out string? reason);
if (directoryLock is null)
{
    Console.Error.WriteLine($"eventfilterd: {reason}");
    return 3;
}

// Checked here for a one-line error; the listener checks again when it binds, after the filters are open.
if (File.Exists(options.SocketPathOrDefault) && UnixSocket.IsLive(options.SocketPathOrDefault))
{
    Console.Error.WriteLine($"eventfilterd: another server is listening on the socket '{Path.GetFullPath(options.SocketPathOrDefault)}'");
    return 4;
}

HostApplicationBuilder builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = false, Args = [] });
builder.Services.AddSingleton(options);
builder.Services.AddSingleton(TimeProvider.System);
builder.Services.AddSingleton<DaemonHealth>();
builder.Services.AddSingleton<DaemonMetrics>();
builder.Services.AddSingleton<LayerObserver>();
builder.Services.AddSingleton(services => new FilterStore(options.DataDirectory, services.GetRequiredService<LayerObserver>()));
builder.Services.AddHostedService<FilterLifetime>();
builder.Services.AddHostedService<Checkpointer>();
builder.Services.AddHostedService<RespListener>();
using IHost host = builder.Build();
await host.RunAsync();
return 0;
