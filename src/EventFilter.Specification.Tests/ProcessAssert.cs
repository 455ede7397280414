using Xunit.Sdk;

namespace EventFilter.Specification;

/// <summary>
/// The checks of the multi-process scenario: each process's filter, following the one log, holds every record below its
/// read position (and below the checkpoint it reopened from), whichever process appended it. Each failure names the
/// process, the stream, its record end, the filter's read position and checkpoint, and the rule broken.
/// </summary>
internal static class ProcessAssert
{
    /// <summary>
    /// Log rule 1 across processes: once no process appends, the end of every running process's log covers the last
    /// record any of them appended, within <see cref="LogCheck.EndPatience"/>. A process whose end moves only with its own
    /// commits would stop its follower, and its catch-up after a restart, below the others' records.
    /// </summary>
    public static async Task EveryEndCoversEveryAppendAsync(ProcessGroup group)
    {
        (string Stream, long RecordEnd) last = group.Live.SelectMany(p => group[p].Filter.Adds).MaxBy(a => a.RecordEnd);
        if (last.Stream is null)
        {
            return;
        }

        foreach (int process in group.Live)
        {
            KitRun run = group[process];
            await SeenInAsync(group, process, () => LogCheck.EndCoversAsync(run.Host.Log, run.Time, last.Stream, last.RecordEnd)).ConfigureAwait(false);
        }
    }

    /// <summary>The log as each running process reads it, record by record; fails naming the log rule a read breaks.</summary>
    public static async Task<LogViews> ReadEveryLogAsync(ProcessGroup group)
    {
        var views = new IReadOnlyList<(string Stream, long End)>?[group.Count];
        foreach (int process in group.Live)
        {
            KitRun run = group[process];
            views[process] = await SeenInAsync(group, process, () => LogCheck.RecordsAsync(run.Host.Log, run.Time)).ConfigureAwait(false);
        }

        return new LogViews(views);
    }

    /// <summary>Waits, naming what for, until <paramref name="process"/>'s filter has read its log up to the log's end as the kit reads it.</summary>
    public static async Task ReadToTheEndAsync(ProcessGroup group, int process, LogViews views)
    {
        KitRun run = group[process];
        long end = run.Host.Log.EndPosition;
        await run.UntilAsync(run.Inner.WaitForReadPositionAsync(end, CancellationToken.None), $"{group.Name(process)}'s filter, following the log, to read it up to its end ({end})").ConfigureAwait(false);
        long read = run.Inner.ReadPosition;
        if (views.All.LastOrDefault() is { Stream: not null } beyond && beyond.End > read)
        {
            throw new XunitException($"{HostContractRules.LogEnd}: {group.Name(process)}'s filter read its log up to {read}, where its EndPosition ({end}) stopped it, but '{beyond.Stream}' ends at {beyond.End} and {views.Reader(beyond)}'s log returns it. Every process's EndPosition must cover every process's durable records, not only its own.");
        }

        if (run.Inner.CheckpointPosition is long claimed && claimed > read)
        {
            throw new XunitException($"{HostContractRules.Processes}: {group.Name(process)}'s filter checkpointed at {claimed}, past its read position ({read}): a following filter's checkpoint claims only what it has read.");
        }
    }

    /// <summary>
    /// Every record in <paramref name="views"/> that ends at or below <paramref name="below"/> (the filter's
    /// <paramref name="bound"/>) must be answered "maybe" by <paramref name="process"/>'s filter.
    /// </summary>
    public static void EveryRecordHeld(ProcessGroup group, int process, LogViews views, long below, string bound, string when)
    {
        KitRun run = group[process];
        foreach ((string stream, long end) in views.All.TakeWhile(r => r.End <= below))
        {
            if (run.Filter.MightExist(stream))
            {
                continue;
            }

            string appender = Enumerable.Range(0, group.Count).FirstOrDefault(p => group[p].Filter.Adds.Any(a => a.Stream == stream), -1) is var by and >= 0 ? $", appended by {group.Name(by)}" : "";
            string seen = $"{group.Name(process)}'s filter answers \"definitely not\" for '{stream}' (record end {end}{appender}) {when}, below {bound} ({below}; its read position is {run.Inner.ReadPosition}, its checkpoint {run.Inner.CheckpointPosition?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "none"})";
            throw new XunitException(views.Reads(process, (stream, end))
                ? $"{HostContractRules.Processes}: {seen}, though its log returns that record now. Its follower read past the record before it was readable: with several processes, EndPosition must stay below every process's transactions in flight (log rule 1), not only this process's own, and a read must not skip a record that commits later."
                : $"{HostContractRules.LogReads}: {seen}. ReadAsync of its log never returns that record, which {views.Reader((stream, end))}'s log returns: every process's log must read the records every process appended (one that reads back its own write buffer or write-ahead log sees only its own), or its filter never learns the others' streams.");
        }
    }

    // A check made through one process's log: its failure says which process's log it was.
    private static async Task<T> SeenInAsync<T>(ProcessGroup group, int process, Func<Task<T>> check)
    {
        try
        {
            return await check().ConfigureAwait(false);
        }
        catch (XunitException failure)
        {
            throw new XunitException($"{failure.Message} (Seen through the log of {group.Name(process)}, one of several over one log.)");
        }
    }

    private static Task SeenInAsync(ProcessGroup group, int process, Func<Task> check) =>
        SeenInAsync(group, process, async () =>
        {
            await check().ConfigureAwait(false);
            return true;
        });

    /// <summary>The records of the log as each running process's log returns them (null for a process not running).</summary>
    internal sealed class LogViews(IReadOnlyList<(string Stream, long End)>?[] byProcess)
    {
        private readonly HashSet<(string, long)>?[] _sets = [.. byProcess.Select(view => view is null ? null : new HashSet<(string, long)>(view))];

        /// <summary>Every record any process's log returns, in log order.</summary>
        public IReadOnlyList<(string Stream, long End)> All { get; } = [.. byProcess.SelectMany(view => view ?? []).Distinct().OrderBy(r => r.End)];

        public bool Reads(int process, (string, long) record) => _sets[process]?.Contains(record) ?? false;

        /// <summary>The first process whose log returns <paramref name="record"/>, as "process 1 of 3".</summary>
        public string Reader((string, long) record) =>
            $"process {Array.FindIndex(_sets, set => set?.Contains(record) ?? false) + 1} of {_sets.Length}";
    }
}
