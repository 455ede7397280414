using System.Globalization;
using EventFilter;
using EventFilter.Hosting;
using EventLog.Server.Hosting;
using EventLog.Server.Telemetry;
using Microsoft.Extensions.Options;

namespace EventLog.Server.Api;

/// <summary>
/// <c>GET /filter</c>: the filter's state and statistics; <c>GET /filter/streams/{stream}</c>: ask it about one name;
/// <c>POST /filter/rebuild</c>: rebuild it online at its size (docs/operations.md, "Healing repaired lines").
/// </summary>
internal static class FilterEndpoints
{
    // "/filter/streams/{stream}" split on '/': "", "filter", "streams", the name.
    private const int StreamSegment = 3;

    public static IEndpointRouteBuilder MapFilterEndpoints(this IEndpointRouteBuilder routes)
    {
        routes.MapGet("/filter", Describe);
        routes.MapGet("/filter/streams/{stream?}", Lookup);
        routes.MapPost("/filter/rebuild", StartRebuild);
        return routes;
    }

    private static IResult StartRebuild(IFilterRebuildControl rebuild, IOptions<StreamExistenceFilterHostingOptions> options)
    {
        // A rebuild that cannot succeed is refused, not accepted to fail in the background: the fresh file takes as
        // much space as the serving one, beside it.
        if (options.Value.DataDirectory is { } directory && Directory.Exists(directory))
        {
            long needed = Directory.EnumerateFiles(directory, "*.filter").Select(file => new FileInfo(file).Length).DefaultIfEmpty(0).Max();
            long free = new DriveInfo(Path.GetFullPath(directory)).AvailableFreeSpace;
            if (free < needed)
            {
                return Problems.RebuildNoSpace(string.Create(CultureInfo.InvariantCulture,
                    $"the fresh file needs {needed:N0} bytes beside the serving one, and the disk holding '{Path.GetFullPath(directory)}' has {free:N0} free"));
            }
        }

        return rebuild.TryStartRebuild(out string? refusal)
            ? TypedResults.Accepted("/filter", new RebuildStartedResponse(true, "A fresh file of the same size is catching up from the log beside the serving one, which answers until the swap; GET /filter shows progress."))
            : Problems.RebuildRefused(refusal);
    }

    private static IResult Lookup(HttpContext context, IStreamExistenceFilter filter)
    {
        if (!RouteStreamName.TryRead(context, StreamSegment, out string? stream, out IResult? problem))
        {
            return problem;
        }

        // Read readiness first: a "maybe" from a filter that became ready just after is still a true answer.
        bool ready = filter.State == FilterState.Ready;
        return TypedResults.Ok(StreamLookupResponse.For(stream, filter.MightExist(stream), ready));
    }

    private static IResult Describe(
        IStreamExistenceFilter filter, IFilterReadPosition reading, IFilterResizeStatus resizing, IFilterRebuildControl rebuilding, EngineHandle handle, FilterMeterReader meters, IOptions<StreamExistenceFilterHostingOptions> options)
    {
        IReadOnlyDictionary<string, double> m = meters.Collect();
        EventLogEngine engine = handle.Engine;
        EngineStatistics counters = engine.Statistics;
        StreamExistenceFilterHostingOptions settings = options.Value;
        return TypedResults.Ok(new FilterResponse(
            filter.State.ToString(),
            filter.State == FilterState.Ready,
            settings.DataDirectory is { } directory ? Path.GetFullPath(directory) : null,
            settings.StreamExistenceFilterSize,
            filter.CheckpointPosition,
            engine.EndPosition,
            Whole(m, "eventfilter.checkpoint.lag"),
            reading.ReadPosition,
            m.TryGetValue("eventfilter.log.read_lag.duration", out double lag) ? lag : 0,
            CatchUpPercent(filter, m),
            Whole(m, "eventfilter.adds") ?? 0,
            new FilterLookups(
                Whole(m, "eventfilter.lookups|definitely-not") ?? 0,
                Whole(m, "eventfilter.lookups|maybe") ?? 0,
                Whole(m, "eventfilter.lookups|not-ready") ?? 0),
            new FilterStatisticsSnapshot(
                string.Create(CultureInfo.InvariantCulture, $"when catch-up ends and at every checkpoint, every {settings.CheckpointInterval}"),
                Whole(m, "eventfilter.size"),
                m.TryGetValue("eventfilter.fill_ratio", out double fill) ? fill : null,
                Whole(m, "eventfilter.names.estimated"),
                m.TryGetValue("eventfilter.false_positive_rate", out double rate) ? rate : null),
            new IndexCounters(
                counters.StreamFilterNegatives,
                counters.IndexFileReads,
                counters.IndexFileFilterSkips,
                counters.CacheHits,
                counters.CacheMisses,
                counters.IndexFiles,
                counters.MemTableEntries),
            resizing.Resize is { } resize
                ? new FilterResizeResponse(resize.FromSizeBytes, resize.ToSizeBytes, Math.Round(resize.Percent, 1), Seconds(resize.EstimatedRemaining))
                : null,
            rebuilding.Rebuild is { } rebuild
                ? new FilterRebuildResponse(rebuild.Reason.ToString(), Math.Round(rebuild.Percent, 1), Seconds(rebuild.EstimatedRemaining))
                : null));
    }

    private static double? Seconds(TimeSpan? eta) => eta is { } remaining ? Math.Ceiling(remaining.TotalSeconds) : null;

    // Catch-up reports once a second, so a catch-up under a second old has none yet: 0%, not "unknown", while initializing.
    private static double? CatchUpPercent(IStreamExistenceFilter filter, IReadOnlyDictionary<string, double> m) =>
        m.TryGetValue("eventfilter.catch_up.progress", out double progress) ? Math.Round(progress * 100, 1)
            : filter.State == FilterState.Initializing ? 0
            : null;

    private static long? Whole(IReadOnlyDictionary<string, double> measurements, string key) =>
        measurements.TryGetValue(key, out double value) ? (long)value : null;
}
