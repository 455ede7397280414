using EventFilter.Hosting;
using EventFilter.Hosting.Health;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Adds the stream-existence filter's health check to <c>services.AddHealthChecks()</c>.</summary>
public static class StreamExistenceFilterHealthChecksBuilderExtensions
{
    /// <summary>The default name of the check.</summary>
    public const string DefaultName = "stream-existence-filter";

    /// <summary>
    /// Reports the hosted filter's state: Healthy when ready or disabled; Degraded while catching up (with the
    /// percentage), with corrupted lines below the rebuild threshold (with the count), or after a failed checkpoint
    /// or resize; Unhealthy when opening or catch-up failed, or after stop. Requires
    /// <see cref="StreamExistenceFilterServiceCollectionExtensions.AddStreamExistenceFilter(IServiceCollection, Microsoft.Extensions.Configuration.IConfiguration)"/>.
    /// </summary>
    /// <param name="builder">The health checks builder.</param>
    /// <param name="name">The check's name.</param>
    /// <param name="tags">Tags to filter checks by, for example "ready" for a readiness endpoint.</param>
    /// <returns>The builder, for chaining.</returns>
    public static IHealthChecksBuilder AddStreamExistenceFilterCheck(this IHealthChecksBuilder builder, string name = DefaultName, IEnumerable<string>? tags = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        return builder.Add(new HealthCheckRegistration(
            name,
            services => new StreamExistenceFilterHealthCheck(
                services.GetService<HostedStreamExistenceFilter>()
                ?? throw new InvalidOperationException("Call services.AddStreamExistenceFilter(...) to use the stream-existence filter health check.")),
            failureStatus: HealthStatus.Unhealthy,
            tags));
    }
}
