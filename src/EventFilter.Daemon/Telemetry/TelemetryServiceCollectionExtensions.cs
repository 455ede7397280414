using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace EventFilter.Daemon.Telemetry;

/// <summary>eventfilterd's telemetry in DI, in one place so that the tests build the same wiring as Program.cs.</summary>
internal static class TelemetryServiceCollectionExtensions
{
    /// <summary>
    /// Adds the health (also as the health check <see cref="DaemonHealth.CheckName"/>, so HealthCheckService answers it),
    /// the meter EventFilter.Daemon, and the observer of layer files. Needs a <see cref="TimeProvider"/>, an ILogger,
    /// logging and metrics.
    /// </summary>
    public static IServiceCollection AddDaemonTelemetry(this IServiceCollection services)
    {
        services.AddSingleton<DaemonHealth>();
        services.AddSingleton<DaemonMetrics>();
        services.AddSingleton<LayerObserver>();

        // The singleton itself, not a second instance: INFO, the gauge and the check read one state.
        services.AddHealthChecks().Add(new HealthCheckRegistration(DaemonHealth.CheckName, provider => provider.GetRequiredService<DaemonHealth>(), failureStatus: null, tags: null));
        return services;
    }
}
