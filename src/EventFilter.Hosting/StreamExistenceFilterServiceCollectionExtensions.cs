using System.Diagnostics.Metrics;
using EventFilter;
using EventFilter.Hosting;
using EventFilter.Hosting.Configuration;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers the hosted stream-existence filter. See docs/configuration.md.</summary>
public static class StreamExistenceFilterServiceCollectionExtensions
{
    /// <summary>
    /// Adds the filter, configured from <paramref name="configuration"/> (usually the section
    /// <see cref="StreamExistenceFilterHostingOptions.SectionName"/>) and from the top-level key
    /// <c>stream-existence-filter-size</c> (the command-line switch): of the two spellings of the size, the one in the
    /// later configuration source wins. The host must register its
    /// <see cref="IStreamNameLog"/>. Calling it again adds configuration but registers nothing twice.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section holding the settings, e.g. <c>builder.Configuration.GetSection("StreamExistenceFilter")</c>.</param>
    /// <returns>The service collection, for chaining.</returns>
    public static IServiceCollection AddStreamExistenceFilter(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        services.AddSingleton<IConfigureOptions<StreamExistenceFilterHostingOptions>>(new SectionReader(configuration));
        return AddOnce(services);
    }

    /// <summary>
    /// Adds the filter, configured in code; the top-level key <c>stream-existence-filter-size</c> (the
    /// command-line switch) still wins when it is in the latest configuration source that holds the size. The host must register its <see cref="IStreamNameLog"/>.
    /// Calling it again adds configuration but registers nothing twice.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the options; at least <see cref="StreamExistenceFilterHostingOptions.DataDirectory"/>.</param>
    /// <returns>The service collection, for chaining.</returns>
    public static IServiceCollection AddStreamExistenceFilter(this IServiceCollection services, Action<StreamExistenceFilterHostingOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        services.Configure(configure);
        return AddOnce(services);
    }

    private static IServiceCollection AddOnce(IServiceCollection services)
    {
        if (services.Any(service => service.ServiceType == typeof(HostedStreamExistenceFilter)))
        {
            return services;
        }

        // Validated when the host starts, before any hosted service runs, so a bad value creates nothing on disk.
        services.AddOptions<StreamExistenceFilterHostingOptions>().ValidateOnStart();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<StreamExistenceFilterHostingOptions>, StreamExistenceFilterOptionsValidator>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IPostConfigureOptions<StreamExistenceFilterHostingOptions>, SizeSwitch>());
#pragma warning disable RS0030 // A composition root: the host's clock, unless it registered its own.
        services.TryAddSingleton(TimeProvider.System);
#pragma warning restore RS0030

        // One instance, registered as itself (what the health check reads) and as four interfaces: the filter the host
        // calls, its resize status, its rebuild control, and the hosted service.
        services.AddSingleton(Create);
        services.AddSingleton<IStreamExistenceFilter>(provider => provider.GetRequiredService<HostedStreamExistenceFilter>());
        services.AddSingleton<IFilterReadPosition>(provider => provider.GetRequiredService<HostedStreamExistenceFilter>());
        services.AddSingleton<IFilterResizeStatus>(provider => provider.GetRequiredService<HostedStreamExistenceFilter>());
        services.AddSingleton<IFilterRebuildControl>(provider => provider.GetRequiredService<HostedStreamExistenceFilter>());
        services.AddSingleton<IHostedService>(provider => provider.GetRequiredService<HostedStreamExistenceFilter>());
        return services;
    }

    // Resolved when the host starts, by DI: without the host's log, DI's own error would not say what to do.
    private static HostedStreamExistenceFilter Create(IServiceProvider provider) => new(
        provider.GetRequiredService<IOptions<StreamExistenceFilterHostingOptions>>(),
        provider.GetService<IStreamNameLog>() ?? throw StreamExistenceFilterStartException.NoStreamNameLog(),
        provider.GetRequiredService<TimeProvider>(),
        provider.GetService<ILoggerFactory>(),
        provider.GetService<IMeterFactory>(),
        provider.GetService<ICheckpointPositionSource>());
}
