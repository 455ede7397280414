using OpenTelemetry.Metrics;
using EventFilter.Hosting;
using EventLog.Server.Api;
using EventLog.Server.Telemetry;

using EventFilter;

namespace EventLog.Server.Hosting;

/// <summary>
/// The server's services. The order of the three hosted services is the start order, and reversed, the stop order
/// (docs/server.md, "Start and stop"): open the engine, open the filter, start appends; stop appends, checkpoint and
/// close the filter, close the engine. Kestrel starts after all three and stops before them.
/// </summary>
internal static class ServerServices
{
    public static IServiceCollection AddEventLogServer(this IServiceCollection services, IConfiguration configuration, ServerSettings settings)
    {
        services.AddSingleton(settings);
        services.AddSingleton<EngineHandle>();
        services.AddSingleton<IStreamNameLog>(provider => provider.GetRequiredService<EngineHandle>());

        // 1. Open the engine: the filter reads the log's end when it opens.
        services.AddHostedService<EngineOpener>();

        // 2. The filter, from the section "StreamExistenceFilter" and --stream-existence-filter-size; its directory
        //    defaults to filter/ under the data directory (a later Configure, so the section's value, if any, stays).
        services.AddStreamExistenceFilter(configuration.GetSection(StreamExistenceFilterHostingOptions.SectionName));
        services.AddStreamExistenceFilter(options => options.DataDirectory ??= settings.FilterDirectory);

        // 3. Start appends with the filter, now open.
        services.AddHostedService<EngineStarter>();

        services.AddSingleton<FilterMeterReader>();
        services.AddSingleton<EngineMetrics>();

        // GET /metrics in the Prometheus text format: the filter's meter, the engine's, ASP.NET Core's and the runtime's
        // (all built into .NET 10, so no instrumentation package is needed). docs/telemetry.md lists them.
        services.AddOpenTelemetry().WithMetrics(metrics => metrics
            .AddMeter("EventFilter", EngineMetrics.MeterName, "Microsoft.AspNetCore.Hosting", "Microsoft.AspNetCore.Server.Kestrel", "System.Runtime")
            .AddPrometheusExporter(prometheus => prometheus.ScrapeResponseCacheDurationMilliseconds = 0)); // every scrape is fresh
        services.AddHealthChecks()
            .AddCheck<EventLogHealthCheck>(EventLogHealthCheck.Name)
            .AddStreamExistenceFilterCheck();
        services.AddProblemDetails();
        services.ConfigureHttpJsonOptions(json => json.SerializerOptions.TypeInfoResolverChain.Insert(0, ServerJsonContext.Default));
        return services;
    }
}
