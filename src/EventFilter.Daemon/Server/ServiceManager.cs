using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Hosting.Systemd;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// systemd's notify protocol through Microsoft.Extensions.Hosting.Systemd: its SystemdLifetime sends READY=1 once the
/// host has started (every filter open, the sockets listening: <see cref="RespListener.StartAsync"/>) and STOPPING=1
/// when a stop begins, and stops the host on SIGTERM; <see cref="Watchdog"/> adds WATCHDOG=1. See docs/daemon.md,
/// "Running as a service", and deploy/eventfilterd.service.
/// </summary>
internal static class ServiceManager
{
    public static IServiceCollection AddServiceManager(this IServiceCollection services)
    {
        // The package's own registration, which applies when systemd is the parent process.
        services.AddSystemd();

        // AddSystemd looks at the parent process only; a NOTIFY_SOCKET set by another parent (a supervisor speaking
        // the protocol, or a test listening on it) is honoured too, with the same two types.
        if (!SystemdHelpers.IsSystemdService() && Environment.GetEnvironmentVariable("NOTIFY_SOCKET") is { Length: > 0 })
        {
            services.AddSingleton<ISystemdNotifier, SystemdNotifier>();
            services.AddSingleton<IHostLifetime, SystemdLifetime>();
        }

        services.AddSingleton<ServingProbe>();
        services.AddHostedService(provider => new Watchdog(
            provider.GetService<ISystemdNotifier>() ?? new SystemdNotifier(),
            provider.GetRequiredService<ServingProbe>().ServesAsync,
            Watchdog.IntervalFromEnvironment(),
            provider.GetRequiredService<IHostApplicationLifetime>().ApplicationStarted,
            provider.GetRequiredService<TimeProvider>(),
            provider.GetRequiredService<ILogger>()));
        return services;
    }
}
