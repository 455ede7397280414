using System.Text.Json.Serialization;

namespace EventLog.Server.Api;

/// <summary>200 from <c>GET /filter</c>: the filter's state, checkpoint and statistics, and what it saves the index.</summary>
/// <param name="State">Initializing, Ready, Disabled, Failed or Stopped.</param>
/// <param name="Ready">True when caught up with the log: only then can it answer "definitely not".</param>
/// <param name="Directory">Where the filter file and its checkpoint live.</param>
/// <param name="ConfiguredSize">The configured size as written, e.g. <c>256MB</c>.</param>
/// <param name="CheckpointPosition">The log position the durable checkpoint covers; null when disabled.</param>
/// <param name="LogEndPosition">The log's durable end now.</param>
/// <param name="CheckpointLag">How much of the log a restart would re-read.</param>
/// <param name="ReadPosition">Every log record below it has been read into the filter, by its catch-up (or a follower).</param>
/// <param name="FollowLagSeconds">How long a following filter has been behind the log's end; 0 at the end and without following.</param>
/// <param name="CatchUpPercent">How far the current or last catch-up has read, 0 to 100; 0 while initializing before the first report.</param>
/// <param name="Adds">Stream names the engine added (catch-up not included).</param>
/// <param name="Lookups">Lookups by answer, since start.</param>
/// <param name="Statistics">The bits, as of the hosting package's last snapshot.</param>
/// <param name="Index">What the engine's index did: lookups the filter answered and index files read.</param>
/// <param name="Resize">The resize under way, null when none is: while it runs, <c>ready</c> is true (the old file serves).</param>
/// <param name="Rebuild">The online rebuild under way (<c>POST /filter/rebuild</c>, or too many all-ones lines), null when none is: while it runs, <c>ready</c> is true (the old file serves).</param>
internal sealed record FilterResponse(
    string State,
    bool Ready,
    string? Directory,
    string ConfiguredSize,
    long? CheckpointPosition,
    long LogEndPosition,
    long? CheckpointLag,
    long ReadPosition,
    double FollowLagSeconds,
    double? CatchUpPercent,
    long Adds,
    FilterLookups Lookups,
    FilterStatisticsSnapshot Statistics,
    IndexCounters Index,
    FilterResizeResponse? Resize,
    FilterRebuildResponse? Rebuild);

/// <summary>A resize under way: the old file answers while the new one catches up from the log.</summary>
/// <param name="FromSizeBytes">The size of the file answering lookups now.</param>
/// <param name="TargetSizeBytes">The configured size being built.</param>
/// <param name="Percent">How much of the log the new file has read, 0 to 100.</param>
/// <param name="EtaSeconds">Seconds until the new file should have caught up; null until there is a rate to go by.</param>
internal sealed record FilterResizeResponse(long FromSizeBytes, long TargetSizeBytes, double Percent, double? EtaSeconds);

/// <summary>An online rebuild under way: the old file answers while a fresh one of the same size catches up from the log.</summary>
/// <param name="Reason"><c>AllOnesLines</c> (started on open) or <c>Requested</c> (<c>POST /filter/rebuild</c>).</param>
/// <param name="Percent">How much of the log the fresh file has read, 0 to 100.</param>
/// <param name="EtaSeconds">Seconds until the fresh file should have caught up; null until there is a rate to go by.</param>
internal sealed record FilterRebuildResponse(string Reason, double Percent, double? EtaSeconds);

/// <summary>202 from <c>POST /filter/rebuild</c>: the online rebuild started; <c>GET /filter</c> shows its progress.</summary>
/// <param name="Started">Always true.</param>
/// <param name="Detail">What happens now, in words.</param>
internal sealed record RebuildStartedResponse(bool Started, string Detail);

/// <summary>
/// The hosting package's statistics snapshot (docs/telemetry.md, "Metrics"): computing it reads every line, so it is
/// taken when catch-up ends and at every checkpoint, not per request. Null before the first.
/// </summary>
/// <param name="Refreshed">When the snapshot is taken, in words, with the checkpoint interval.</param>
/// <param name="SizeBytes">The size of the file answering lookups.</param>
/// <param name="FillRatio">Share of the filter's bits set.</param>
/// <param name="EstimatedNames">Estimated distinct stream names in the filter.</param>
/// <param name="EstimatedFalsePositiveRate">Estimated chance that a new stream gets "maybe".</param>
internal sealed record FilterStatisticsSnapshot(string Refreshed, long? SizeBytes, double? FillRatio, long? EstimatedNames, double? EstimatedFalsePositiveRate);

/// <summary>
/// Lookups by answer: "definitely not", "maybe", and "maybe" because the filter was not ready. Keyed by the values of
/// the eventfilter.answer metric tag, so the API and a dashboard spell each answer the same way.
/// </summary>
internal sealed record FilterLookups(
    [property: JsonPropertyName(StreamLookupResponse.DefinitelyNot)] long DefinitelyNot,
    [property: JsonPropertyName(StreamLookupResponse.Maybe)] long Maybe,
    [property: JsonPropertyName("not-ready")] long NotReady);

/// <summary>The engine's counters that show the filter at work (samples/EventLog/README.md, "Counters").</summary>
/// <param name="StreamFilterNegatives">Last-event-number lookups the filter answered "definitely new": no index touched.</param>
/// <param name="IndexFileReads">Lookups that read an index file's entries.</param>
/// <param name="IndexFileFilterSkips">Index files skipped by their own per-file Bloom filter.</param>
/// <param name="CacheHits">Lookups answered by the stream-info cache.</param>
/// <param name="CacheMisses">Lookups the cache could not answer.</param>
/// <param name="IndexFiles">Index files now.</param>
/// <param name="MemTableEntries">Index entries in memory now.</param>
internal sealed record IndexCounters(
    long StreamFilterNegatives,
    long IndexFileReads,
    long IndexFileFilterSkips,
    long CacheHits,
    long CacheMisses,
    int IndexFiles,
    long MemTableEntries);
