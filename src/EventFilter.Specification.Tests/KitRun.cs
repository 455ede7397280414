using System.Collections.Concurrent;
using Xunit.Sdk;

namespace EventFilter.Specification;

/// <summary>
/// One life of the host under test and its filter, which the kit opens, catches up, checkpoints, resizes, stops or
/// crashes as the hosting package would, over the host's log behind a <see cref="HeldLog"/>.
/// </summary>
internal sealed partial class KitRun
{
    public static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    /// <summary>How often a following filter polls the log's end: short, so that a process learns the others' streams soon.</summary>
    public static readonly TimeSpan FollowPoll = TimeSpan.FromMilliseconds(10);

    private readonly string _filterDirectory;
    private readonly bool _follow;

    private CancellationTokenSource _stopping = new();
    private StreamExistenceFilter _inner;

    private KitRun(IHostUnderTest host, FilterUnderTest filter, HeldLog log, KitObserver observer, string filterDirectory, bool follow, StreamExistenceFilter inner, TimeProvider time)
    {
        Time = time;
        Host = host;
        Filter = filter;
        Log = log;
        Observer = observer;
        _filterDirectory = filterDirectory;
        _follow = follow;
        _inner = inner;
    }

    /// <summary>The kit's clock (<c>HostContractSpecification.TimeProvider</c>): every wait of the run, and the filter's.</summary>
    public TimeProvider Time { get; }

    public IHostUnderTest Host { get; }

    /// <summary>What the host adds to, and what the kit asks.</summary>
    public FilterUnderTest Filter { get; }

    public HeldLog Log { get; }

    public KitObserver Observer { get; }

    public StreamExistenceFilter Inner => _inner;

    public Task CatchUp { get; private set; } = Task.CompletedTask;

    /// <summary>True once the host and the filter have been stopped, cleanly or by a crash.</summary>
    public bool IsStopped { get; private set; }

    /// <summary>The path of the file a resize or an online rebuild builds beside the serving one (docs/operations.md).</summary>
    public string BuildPath => Options(0).FilterPath + ".resize";

    /// <summary>
    /// Starts the host, then opens the filter over its log (the filter reads the log's end as it opens) and puts it
    /// behind the host's calls; with <paramref name="catchUp"/>, runs the catch-up and waits until ready. With
    /// <paramref name="follow"/>, the filter follows the log as one process among several over it does.
    /// </summary>
    public static async Task<KitRun> StartAsync(
        Func<string, IStreamExistenceFilter, Task<IHostUnderTest>> startHost, string hostDirectory, string filterDirectory, long sizeBytes,
        ConcurrentQueue<(string Stream, long RecordEnd)> adds, TimeProvider time, bool catchUp = true, bool follow = false)
    {
        var filter = new FilterUnderTest(adds);
        IHostUnderTest host;
        try
        {
            host = await startHost(hostDirectory, filter).ConfigureAwait(false);
        }
        catch (InvalidOperationException) when (filter.AddedBeforeOpen is { } early)
        {
            throw new Xunit.Sdk.XunitException($"{HostContractRules.Rule1}: the host added '{early}' while it started, before its filter was opened. Start appending only once the filter's Open() has returned (with the hosting package: register the filter before the services that append).");
        }

        var log = new HeldLog(host.Log);
        filter.Truncated = log.Truncated;
        var observer = new KitObserver();
        StreamExistenceFilter inner = OpenFilter(Options(filterDirectory, sizeBytes, time, follow), log, observer);
        filter.Attach(inner);
        var run = new KitRun(host, filter, log, observer, filterDirectory, follow, inner, time);
        if (catchUp)
        {
            run.StartCatchUp();
            try
            {
                await run.UntilAsync(run.Inner.WhenReady, "the filter's catch-up from the host's log").ConfigureAwait(false);
            }
            catch
            {
                run.Abandon();
                throw;
            }
        }

        return run;
    }

    public void StartCatchUp() => CatchUp = _inner.CatchUpAsync(_stopping.Token);

    /// <summary>What the hosting package does on its timer: a checkpoint at the log's durable end.</summary>
    public void Checkpoint() => _inner.Checkpoint(Log.EndPosition);

    /// <summary>
    /// Closes the filter cleanly and opens it again at <paramref name="sizeBytes"/> while the host goes on: a resize.
    /// The host's adds wait meanwhile. The catch-up (and the build of the new size) starts with <see cref="StartCatchUp"/>.
    /// </summary>
    public void ReopenAt(long sizeBytes) => Filter.Swap(() =>
    {
        StopFilter(checkpoint: true);
        _stopping = new CancellationTokenSource();
        _inner = OpenFilter(Options(sizeBytes), Log, Observer);
        Filter.Attach(_inner);
    });

    /// <summary>The host stops first (it must stop appending), then the filter takes its final checkpoint and closes.</summary>
    public async Task StopAsync()
    {
        IsStopped = true;
        await Host.DisposeAsync().ConfigureAwait(false);
        StopFilter(checkpoint: true);
    }

    /// <summary>A crash: nothing the host does reaches the filter any more, which closes without a checkpoint.</summary>
    public async Task CrashAsync()
    {
        IsStopped = true;
        Filter.Crash();
        StopFilter(checkpoint: false);
        await Host.DisposeAsync().ConfigureAwait(false);
    }

    /// <summary>After a failed test: stops the host (its writer must not run on during cleanup) and closes the filter.</summary>
    public void Abandon()
    {
        if (IsStopped)
        {
            return;
        }

        IsStopped = true;
        Filter.Crash();
        try
        {
            // On the pool: a host's stop may need a thread the test's synchronisation context would not give back.
            _ = Task.Run(async () => await Host.DisposeAsync().ConfigureAwait(false)).Wait(Patience);
        }
        catch (AggregateException)
        {
            // The test has failed already; a host that fails to stop as well must not hide why.
        }

        StopFilter(checkpoint: false);
    }

    /// <summary>
    /// Waits for <paramref name="task"/>; fails naming the log rule if the filter reports that the host's log broke one
    /// first, and naming <paramref name="what"/> if nothing happens within <see cref="Patience"/>, never with a bare timeout.
    /// </summary>
    public async Task UntilAsync(Task task, string what)
    {
        using var timeout = new CancellationTokenSource();
        Task first = await Task.WhenAny(task, Observer.LogViolated.Task, Task.Delay(Patience, Time, timeout.Token)).ConfigureAwait(false);
        await timeout.CancelAsync().ConfigureAwait(false);
        if (first == task)
        {
            await task.ConfigureAwait(false);
            return;
        }

        if (first == Observer.LogViolated.Task)
        {
            throw await LogFailureAsync().ConfigureAwait(false);
        }

        throw new XunitException($"{what} did not finish within {Patience.TotalMinutes:F0} minutes: the filter is {Inner.State} (read position {Inner.ReadPosition}), the log's EndPosition is {Host.Log.EndPosition}. Neither the filter nor the kit saw a broken rule; look for a host or log that stopped answering.");
    }

    /// <summary>The log rule the filter reported broken, named as exactly as a read of the whole log can.</summary>
    public async Task<XunitException> LogFailureAsync()
    {
        if (await LogCheck.DiagnoseAsync(Host.Log, Time).ConfigureAwait(false) is { } named)
        {
            return new XunitException(named);
        }

        (LogContractViolation violation, string detail) = Observer.LogViolations.First();
        return new XunitException($"{HostContractRules.Of(violation)}: the filter's catch-up reported {violation}: {detail}");
    }

    /// <summary>Appends <paramref name="count"/> new streams from <paramref name="appenders"/> tasks; returns their names.</summary>
    public async Task<IReadOnlyList<string>> AppendAsync(string prefix, int appenders, int count)
    {
        var acknowledged = new ConcurrentQueue<string>();
        int next = -1;
        await UntilAsync(Task.WhenAll(Enumerable.Range(0, appenders).Select(_ => Task.Run(async () =>
        {
            for (int i = Interlocked.Increment(ref next); i < count; i = Interlocked.Increment(ref next))
            {
                string stream = $"{prefix}-{i}";
                await EnterAppendAsync().ConfigureAwait(false);
                try
                {
                    await Host.AppendAsync(stream, CancellationToken.None).ConfigureAwait(false);
                }
                finally
                {
                    LeaveAppend();
                }

                acknowledged.Enqueue(stream);
            }
        }))), $"appending {count} streams").ConfigureAwait(false);

        // Once no append is in flight, the log's end must cover every acknowledged record (log rule 1).
        if (NoneInFlight)
        {
            var mine = new HashSet<string>(acknowledged, StringComparer.Ordinal);
            if (Filter.Adds.Where(a => mine.Contains(a.Stream)).OrderByDescending(a => a.RecordEnd).FirstOrDefault() is { Stream: not null } last)
            {
                await LogCheck.EndCoversAsync(Host.Log, Time, last.Stream, last.RecordEnd).ConfigureAwait(false);
            }
        }

        return [.. acknowledged];
    }

    private void StopFilter(bool checkpoint)
    {
        _stopping.Cancel();
        try
        {
            CatchUp.Wait(Patience);
        }
        catch (AggregateException)
        {
            // Cancelled, or failed: a failure is in Observer.Failures, which every test checks.
        }

        if (checkpoint)
        {
            _inner.Checkpoint(Log.EndPosition);
        }

        _inner.Dispose();
    }

    private static StreamExistenceFilter OpenFilter(StreamExistenceFilterOptions options, HeldLog log, KitObserver observer)
    {
        StreamExistenceFilter filter = new(options, log, observer);
        filter.Open();
        return filter;
    }

    private StreamExistenceFilterOptions Options(long sizeBytes) => Options(_filterDirectory, sizeBytes, Time, _follow);

    private static StreamExistenceFilterOptions Options(string directory, long sizeBytes, TimeProvider time, bool follow) =>
        new() { DataDirectory = directory, SizeBytes = sizeBytes, CatchUpCheckpointRecords = 64, TimeProvider = time, FollowLog = follow, FollowPollInterval = FollowPoll };
}
