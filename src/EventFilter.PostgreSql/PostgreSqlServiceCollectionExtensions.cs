using EventFilter;
using EventFilter.Hosting;
using EventFilter.PostgreSql;
using EventFilter.PostgreSql.Configuration;
using EventFilter.PostgreSql.End;
using EventFilter.PostgreSql.Table;
using EventFilter.PostgreSql.Telemetry;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers an events table in PostgreSQL as the hosted filter's log.</summary>
public static class PostgreSqlServiceCollectionExtensions
{
    /// <summary>
    /// Makes the events table the filter's log, configured from <paramref name="configuration"/> (usually the section
    /// <see cref="PostgreSqlStreamLogOptions.SectionName"/>): the log, its checkpoint position and its wake-up, the
    /// <see cref="PostgreSqlAppender"/> for the write path, and a service that checks the table and keeps the end
    /// moving from before the filter opens to after it stops, wherever this call stands beside
    /// <c>AddStreamExistenceFilter</c>. It turns the filter's <c>FollowLog</c> on: every process over the table learns
    /// the others' streams.
    /// </summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configuration">The section holding the settings.</param>
    /// <returns>The service collection, for chaining.</returns>
    public static IServiceCollection AddPostgreSqlStreamLog(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        services.AddSingleton<IConfigureOptions<PostgreSqlStreamLogOptions>>(new OptionsReader(configuration));
        return AddOnce(services);
    }

    /// <summary>Makes the events table the filter's log, configured in code; as the overload that reads configuration.</summary>
    /// <param name="services">The service collection.</param>
    /// <param name="configure">Sets the options.</param>
    /// <returns>The service collection, for chaining.</returns>
    public static IServiceCollection AddPostgreSqlStreamLog(this IServiceCollection services, Action<PostgreSqlStreamLogOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        services.Configure(configure);
        return AddOnce(services);
    }

    private static IServiceCollection AddOnce(IServiceCollection services)
    {
        if (services.Any(service => service.ServiceType == typeof(PostgreSqlLogService)))
        {
            return services;
        }

        services.AddOptions<PostgreSqlStreamLogOptions>().ValidateOnStart();
        services.AddSingleton<IValidateOptions<PostgreSqlStreamLogOptions>, OptionsValidator>();
        services.AddOptions<StreamExistenceFilterHostingOptions>().PostConfigure<IOptions<PostgreSqlStreamLogOptions>>((filter, log) => filter.FollowLog |= !log.Value.LeaveFollowingOff);
#pragma warning disable RS0030 // A composition root: the host's clock, unless it registered its own.
        services.TryAddSingleton(TimeProvider.System);
#pragma warning restore RS0030

        services.AddSingleton<EventsDatabase>();
        services.AddSingleton(provider => new EventsTable(provider.GetRequiredService<IOptions<PostgreSqlStreamLogOptions>>().Value));
        services.AddSingleton<EndReading>(provider => new HighWaterMark(provider.GetRequiredService<EventsTable>()));
        services.AddSingleton(provider => new SafeEnd(provider.GetRequiredService<EventsDatabase>().Source, provider.GetRequiredService<EndReading>(), provider.GetRequiredService<TimeProvider>()));
        services.AddSingleton(provider => new PostgreSqlMetrics(provider.GetService<System.Diagnostics.Metrics.IMeterFactory>(), provider.GetRequiredService<SafeEnd>()));
        services.AddSingleton(provider => new EndPoller(
            provider.GetRequiredService<SafeEnd>(),
            provider.GetRequiredService<EventsTable>().Options.PollInterval,
            provider.GetRequiredService<TimeProvider>(),
            provider.GetRequiredService<PostgreSqlMetrics>(),
            provider.GetService<ILoggerFactory>()?.CreateLogger(Log.Category) ?? NullLogger.Instance));
        services.AddSingleton(provider => new PostgreSqlStreamLog(provider.GetRequiredService<EventsDatabase>().Source, provider.GetRequiredService<EventsTable>(), provider.GetRequiredService<SafeEnd>()));
        services.AddSingleton<IStreamNameLog>(provider => provider.GetRequiredService<PostgreSqlStreamLog>());
        services.AddSingleton<ICheckpointPositionSource>(provider => provider.GetRequiredService<PostgreSqlStreamLog>());
        services.AddSingleton(provider => new PostgreSqlAppender(
            provider.GetRequiredService<EventsDatabase>(),
            provider.GetRequiredService<IStreamExistenceFilter>(),
            provider.GetRequiredService<EventsTable>(),
            provider.GetRequiredService<EndPoller>(),
            provider.GetRequiredService<PostgreSqlMetrics>()));
        services.AddSingleton<PostgreSqlLogService>();

        // First of the hosted services: it starts before the filter (which reads the end as it opens) and stops after it.
        int first = services.TakeWhile(service => service.ServiceType != typeof(IHostedService)).Count();
        services.Insert(first, ServiceDescriptor.Singleton<IHostedService>(provider => provider.GetRequiredService<PostgreSqlLogService>()));
        return services;
    }
}
