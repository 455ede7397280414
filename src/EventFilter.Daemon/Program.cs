using System.Net.Sockets;
using EventFilter.Daemon;
using EventFilter.Daemon.Configuration;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Server;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

// eventfilterd: named Bloom filters over a Unix socket in RESP2 with RedisBloom's BF.* commands. See docs/daemon.md.
DaemonConfiguration.Outcome configured = DaemonConfiguration.Load(args);
if (configured.ExitCode is { } exit)
{
    return exit;
}

DaemonOptions options = configured.Options!;
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

// No defaults: they read appsettings.json from the working directory with reload on change, which watches that whole
// tree (a repository, /tmp) through inotify, costing start-up time and memory and waking on every filter created
// under it. The configuration is the one read above: --config's file, the environment, the command line; logging
// takes its "Logging" section (Logging__LogLevel__Default=Debug), one line per entry on standard output.
HostApplicationBuilder builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true, Args = [] });
builder.Configuration.AddConfiguration(configured.Configuration!);
builder.Logging.AddConfiguration(builder.Configuration.GetSection("Logging"));
builder.Logging.AddProvider(new LineLoggerProvider());

// One log category, EventFilter.Daemon, as the hosting package logs under EventFilter. One ILogger rather than an
// ILogger<T> per class also spares NativeAOT's start-up from building a Logger<T> type per class at run time.
builder.Services.AddSingleton(services => services.GetRequiredService<ILoggerFactory>().CreateLogger("EventFilter.Daemon"));
builder.Services.AddSingleton(options);
builder.Services.AddSingleton(TimeProvider.System);
builder.Services.AddDaemonTelemetry();
builder.Services.AddSingleton(services => new FilterStore(options.DataDirectory, options.LogSync, services.GetRequiredService<LayerObserver>(), services.GetRequiredService<ILogger>()));
builder.Services.AddHostedService<FilterLifetime>();
builder.Services.AddHostedService<Checkpointer>();
builder.Services.AddHostedService<MemoryTrim>();
builder.Services.AddHostedService<RespListener>();
builder.Services.AddServiceManager();
using IHost host = builder.Build();
if (!FilterLifetime.TryOpen(host.Services, out string? problem))
{
    Console.Error.WriteLine($"eventfilterd: {problem}");
    return 5;
}

try
{
    await host.RunAsync();
}
catch (Exception e) when (e is IOException or SocketException or UnauthorizedAccessException)
{
    // The listener could not bind (RespListener.StartAsync): the filters were opened and are closed again unchanged.
    Console.Error.WriteLine($"eventfilterd: cannot listen: {e.Message}");
    return 4;
}

return 0;
