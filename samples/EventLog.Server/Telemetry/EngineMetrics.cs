using System.Diagnostics.Metrics;
using EventLog.Server.Hosting;

namespace EventLog.Server.Telemetry;

/// <summary>
/// The engine's own counters as the meter <c>EventLog</c> (docs/telemetry.md, "Server metrics"): observable instruments
/// that read one <see cref="EngineStatistics"/> snapshot per collection, so appends pay nothing for them. Before the
/// engine is open they report nothing.
/// </summary>
internal sealed class EngineMetrics
{
    public const string MeterName = "EventLog";

    private readonly EngineHandle _engine;

    public EngineMetrics(IMeterFactory meterFactory, EngineHandle engine)
    {
        _engine = engine;
        Meter meter = meterFactory.Create(MeterName);
        meter.CreateObservableCounter("eventlog.appends", () => Read(s => s.AppendsWritten), "{append}", "Appends written (each of one or more events).");
        meter.CreateObservableCounter("eventlog.fsyncs", () => Read(s => s.GroupCommits), "{fsync}", "fsyncs of the log (group commits).");
        meter.CreateObservableCounter("eventlog.index.file_reads", () => Read(s => s.IndexFileReads), "{read}", "Lookups that read entries of an index file, one per file that its own filter did not rule out.");
        meter.CreateObservableCounter("eventlog.index.filter_skips", () => Read(s => s.IndexFileFilterSkips), "{skip}", "Index files skipped because their own Bloom filter said \"definitely not\".");
        meter.CreateObservableCounter("eventlog.stream_filter.new_streams", () => Read(s => s.StreamFilterNegatives), "{lookup}", "Last-event-number lookups the stream-existence filter answered \"definitely new\", touching no index.");
        meter.CreateObservableCounter("eventlog.index.flushes", () => Read(s => s.IndexFlushes), "{flush}", "Memtables written as index files.");
        meter.CreateObservableCounter("eventlog.index.merges", () => Read(s => s.IndexMerges), "{merge}", "Merges of index files.");
        meter.CreateObservableGauge("eventlog.index.files", () => Read(s => s.IndexFiles), "{file}", "Index files now.");
        meter.CreateObservableGauge("eventlog.log.end", () => Read(s => s.DurableEnd), "By", "The log's durable end: its size in bytes.");
    }

    private IEnumerable<Measurement<long>> Read(Func<EngineStatistics, long> value) =>
        _engine.IsOpen ? [new Measurement<long>(value(_engine.Engine.Statistics))] : [];
}
