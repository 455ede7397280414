using System.Net.Sockets;
using EventFilter.Daemon.Configuration;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Server;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon;

/// <summary>
/// The daemon from its command line to its exit code, each code documented in docs/daemon.md, "Starting and stopping".
/// Apart from Program so that the descriptor check there runs before this method is compiled: compiling it loads
/// every assembly it names (hosting, configuration, logging), each holding 2 descriptors.
/// </summary>
internal static class DaemonMain
{
    public static async Task<int> RunAsync(string[] args)
    {
        DaemonConfiguration.Outcome configured = DaemonConfiguration.Load(args);
        if (configured.ExitCode is { } exit)
        {
            return exit;
        }

        DaemonOptions options = configured.Options!;
        if (AssemblyPreload.Run() is { } unloadable)
        {
            Console.Error.WriteLine($"eventfilterd: cannot start: {unloadable} Nothing was changed.");
            return 5;
        }

        // Checked before anything is created, for a one-line error; the listener checks again when it binds, after the
        // filters are open.
        if (File.Exists(options.SocketPathOrDefault) && UnixSocket.IsLive(options.SocketPathOrDefault))
        {
            Console.Error.WriteLine($"eventfilterd: another server is listening on the socket '{Path.GetFullPath(options.SocketPathOrDefault)}'");
            return 4;
        }

        if (RespListener.TcpRefusal(options) is { } tcpInUse)
        {
            Console.Error.WriteLine($"eventfilterd: {tcpInUse}");
            return 4;
        }

        // Before the lock: a directory the daemon may not write (or a read-only mount) is not one in use.
        if (StartCheck.DataDirectoryRefusal(options.DataDirectory) is { } denied)
        {
            Console.Error.WriteLine($"eventfilterd: cannot start: {denied} Nothing was changed.");
            return 5;
        }

        // The lock makes a new directory: what a start with no filters needs is checked before it, so that a refused
        // start creates nothing. FilterStore's start check runs again, with the filters, once the lock is held.
        DescriptorBudget.Configure(options.MaxClients);
        if (!Directory.Exists(options.DataDirectory) && StartCheck.NewDirectoryRefusal(options.DataDirectory) is { } cannot)
        {
            Console.Error.WriteLine($"eventfilterd: cannot start: {cannot} Nothing was changed.");
            return 5;
        }

        using DataDirectoryLock? directoryLock = DataDirectoryLock.TryAcquire(options.DataDirectory, out string? reason);
        if (directoryLock is null)
        {
            Console.Error.WriteLine($"eventfilterd: {reason}");
            return 3;
        }

        // No defaults: they read appsettings.json from the working directory with reload on change, which watches that whole
        // tree (a repository, /tmp) through inotify, costing start-up time and memory and waking on every filter created
        // under it. The configuration is the one read above: --config's file, the environment, the command line; logging
        // takes its "Logging" section (Logging__LogLevel__Default=Debug), one line per entry on standard output.
        HostApplicationBuilder builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true, Args = [] });
        builder.Configuration.AddConfiguration(configured.Configuration!);
        #pragma warning disable RS0030 // The daemon's composition root: everything else takes this clock from DI.
        TimeProvider time = TimeProvider.System;
        #pragma warning restore RS0030
        builder.Logging.AddConfiguration(builder.Configuration.GetSection("Logging"));
        builder.Logging.AddProvider(new LineLoggerProvider(time));

        // One log category, EventFilter.Daemon, as the hosting package logs under EventFilter. One ILogger rather than an
        // ILogger<T> per class also spares NativeAOT's start-up from building a Logger<T> type per class at run time.
        builder.Services.AddSingleton(services => services.GetRequiredService<ILoggerFactory>().CreateLogger("EventFilter.Daemon"));
        builder.Services.AddSingleton(options);
        builder.Services.AddSingleton(time);
        builder.Services.AddDaemonTelemetry();
        builder.Services.AddSingleton(services => new FilterStore(options.DataDirectory, options.LogSync, services.GetRequiredService<LayerObserver>(), services.GetRequiredService<ILogger>(), services.GetRequiredService<TimeProvider>()));
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

        // Every way out but a clean stop is non-zero, so that systemd's Restart=on-failure restarts it; the codes are in
        // docs/daemon.md, "Starting and stopping".
        try
        {
            // Bound before the host starts: a failure there would be logged by the host with its stack trace.
            host.Services.GetServices<IHostedService>().OfType<RespListener>().Single().Bind();
            await host.StartAsync();
        }
        catch (Exception e) when (e is IOException or SocketException or UnauthorizedAccessException)
        {
            // The listener could not bind: the filters were opened and are closed again unchanged.
            Console.Error.WriteLine($"eventfilterd: cannot listen: {e.Message}");
            return 4;
        }

        try
        {
            await host.WaitForShutdownAsync();
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            // The last tick or checkpoints failed (a full disk, no descriptors): what they did not make durable, the log has.
            Console.Error.WriteLine($"eventfilterd: the stop failed: {e.Message} The next start recovers from the files.");
            return 6;
        }

        // A background service that failed stops the host as a SIGTERM would: that is not a clean stop.
        if (host.Services.GetServices<IHostedService>().OfType<BackgroundService>().Select(service => service.ExecuteTask?.Exception).FirstOrDefault(e => e is not null) is { } fault)
        {
            Console.Error.WriteLine($"eventfilterd: stopped after a failure: {fault.GetBaseException().Message}");
            return 7;
        }

        return 0;
    }
}
