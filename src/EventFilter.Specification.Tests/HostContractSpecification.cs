using System.Collections.Concurrent;
using Xunit;
using Xunit.Sdk;

namespace EventFilter.Specification;

/// <summary>
/// Specification tests for a host of the stream-existence filter (docs/design.md, "Host contract"). Inherit it in
/// your test project, start your host in <see cref="StartHostAsync"/> (over your log, adding to the filter it is
/// given), cut your stopped log in <see cref="CutLogAsync"/>, and every test below runs against your host: concurrent
/// appends, checkpoints while appending, a resize and an online rebuild racing an append whose record is not yet
/// durable to the filter, a cut log, a reopen after an unclean stop and a clean stop; and, if your host runs as several
/// processes over one log (<see cref="Processes"/>), several of them appending together. A failure names the rule broken.
/// The kit plays the hosting package's part: it opens the filter after your host starts, catches it up, checkpoints
/// it at your log's durable end and closes it after your host stops.
/// </summary>
public abstract partial class HostContractSpecification : IDisposable
{
    private const long SmallSize = 256 * 1024;
    private const long LargeSize = 1024 * 1024;
    private readonly string _root = Directory.CreateTempSubdirectory("eventfilter-specification-").FullName;
    private readonly ConcurrentQueue<(string Stream, long RecordEnd)> _adds = new();
    private KitRun? _run;

    /// <summary>Appending tasks at once.</summary>
    protected virtual int Appenders => 4;

    /// <summary>Streams appended per step of a test (each append is one record of a new stream).</summary>
    protected virtual int AppendsPerStep => 200;

#pragma warning disable RS0030 // The kit's composition root: every other wait of the kit takes its clock from here.
    /// <summary>
    /// The kit's one clock: its waits for the host and the host's log, and the filter it opens, all run on it. A real
    /// host's log moves in real time, so override it only with a clock that moves too.
    /// </summary>
    /// <value>The default value is <see cref="TimeProvider.System"/>.</value>
    protected virtual TimeProvider TimeProvider => TimeProvider.System;
#pragma warning restore RS0030

    private string HostDirectory => Path.Combine(_root, "host");

    private string FilterDirectory => Path.Combine(_root, "filter");

    /// <summary>
    /// Starts (or, after a stop, restarts) the host over its data in <paramref name="directory"/>, adding every record
    /// it appends to <paramref name="filter"/>. The filter is opened once this returns, before the first append.
    /// </summary>
    protected abstract Task<IHostUnderTest> StartHostAsync(string directory, IStreamExistenceFilter filter);

    /// <summary>
    /// Cuts the log of the stopped host in <paramref name="directory"/> back to <paramref name="position"/> (a record
    /// boundary), as a lost tail leaves it: the next start finds the log that long.
    /// </summary>
    protected abstract Task CutLogAsync(string directory, long position);

    /// <summary>Rule 2: appends from several tasks at once each add their stream, with the end of their record as the log reports it.</summary>
    [Fact]
    public async Task Concurrent_appends_add_every_record_with_its_end()
    {
        KitRun run = await StartAsync(SmallSize);
        IReadOnlyList<string> streams = await run.AppendAsync("concurrent", Appenders, AppendsPerStep);

        await HostAssert.EndsMatchTheLogAsync(run);
        HostAssert.EveryStreamFound(run, streams, "after concurrent appends");
        await run.StopAsync();
        await HostAssert.CleanAsync(run);
    }

    /// <summary>Rule 3: checkpoints at the log's durable end taken while appends run claim no name not yet added; a crash right after loses nothing.</summary>
    [Fact]
    public async Task Checkpoints_while_appending_claim_only_what_the_adds_reached()
    {
        KitRun run = await StartAsync(SmallSize);
        using var appending = new CancellationTokenSource();
        Task<IReadOnlyList<string>> appends = run.AppendAsync("checkpointed", Appenders, AppendsPerStep);
        while (!appends.IsCompleted)
        {
            run.Checkpoint();
            await Task.Yield();
        }

        IReadOnlyList<string> streams = await appends;
        run.Checkpoint();
        await run.CrashAsync();
        await HostAssert.CleanAsync(run);

        await ReopenAndFindAsync(streams, "after checkpoints taken while appending and a crash");
    }

    /// <summary>
    /// Log rule 1 and rule 3: while one append is held inside its add (before its commit, for a host that adds first),
    /// later appends must not take the log's end past it with their adds returned: an end at the highest committed
    /// position, or adds after the commit that overtake each other, would let a checkpoint claim the held name too early.
    /// </summary>
    [Fact]
    public async Task An_append_held_in_its_add_is_not_passed_by_the_end()
    {
        KitRun run = await StartAsync(SmallSize);
        await HeldAppendCheck.RunAsync(run, Appenders, AppendsPerStep);
        await run.StopAsync();
        await HostAssert.CleanAsync(run);
    }

    /// <summary>Rule 2: a resize while appends run, raced by an add whose record is not yet durable to the filter when the new file is published, loses nothing.</summary>
    [Fact]
    public async Task A_resize_while_appending_loses_no_stream()
    {
        KitRun run = await BuildWhileAppendingAsync(SmallSize, "resize", run =>
        {
            // The new size serves from the old file until its build has caught up (docs/design.md, "Resize").
            run.ReopenAt(LargeSize);
            return () =>
            {
                run.StartCatchUp();
                return run.Observer.Resized.Task;
            };
        });

        Assert.True(run.Inner.ServingSizeBytes == LargeSize, "The resize did not complete.");
        await run.StopAsync();
        await HostAssert.CleanAsync(run);
    }

    /// <summary>Rule 2: an online rebuild while appends run, raced as the resize is, loses nothing.</summary>
    [Fact]
    public async Task An_online_rebuild_while_appending_loses_no_stream()
    {
        KitRun run = await BuildWhileAppendingAsync(LargeSize, "online rebuild", run => () => run.Inner.RebuildAsync(CancellationToken.None));
        await run.StopAsync();
        await HostAssert.CleanAsync(run);
    }

    /// <summary>Rule 4: a log cut while stopped (and while running, if the host ever cuts a running log) loses no stream acknowledged before the cut point or after the cut.</summary>
    [Fact]
    public async Task A_cut_log_loses_no_acknowledged_stream()
    {
        KitRun run = await StartAsync(SmallSize);
        IReadOnlyList<string> first = await run.AppendAsync("before-cut", 1, AppendsPerStep);
        IReadOnlyList<(string Stream, long End)> records = await HostAssert.RecordsAsync(run);
        await run.StopAsync();
        await HostAssert.CleanAsync(run);

        // Cut while stopped, mid-way: the filter's checkpoint now claims more log than there is.
        (string _, long cutAt) = records[records.Count / 2];
        await CutLogAsync(HostDirectory, cutAt);
        run = await StartAsync(SmallSize);
        IReadOnlyList<string> kept = [.. records.Take((records.Count / 2) + 1).Select(r => r.Stream)];
        IReadOnlyList<string> after = await run.AppendAsync("after-cut", Appenders, AppendsPerStep);
        run.Checkpoint();

        // Cut while running, if the host ever does that: it must tell the filter.
        IReadOnlyList<string> afterLiveCut = [];
        IReadOnlyList<(string Stream, long End)> now = await HostAssert.RecordsAsync(run);
        if (await run.Host.TryCutLogAsync(now[^(AppendsPerStep / 2)].End))
        {
            after = [.. now.Take(now.Count - (AppendsPerStep / 2) + 1).Select(r => r.Stream).Where(s => s.StartsWith("after-cut", StringComparison.Ordinal))];
            afterLiveCut = await run.AppendAsync("after-live-cut", Appenders, AppendsPerStep);
            run.Checkpoint();
        }

        await run.CrashAsync();
        await HostAssert.CleanAsync(run);
        await ReopenAndFindAsync([.. kept, .. after, .. afterLiveCut], "after the log was cut and the host crashed");
        Assert.NotEmpty(first);
    }

    /// <summary>Rules 2 and 3 and the log: after a crash, the filter reopened from its last checkpoint and caught up from the host's log finds every acknowledged stream.</summary>
    [Fact]
    public async Task A_reopen_after_an_unclean_stop_finds_every_acknowledged_stream()
    {
        KitRun run = await StartAsync(SmallSize);
        IReadOnlyList<string> checkpointed = await run.AppendAsync("checkpointed", Appenders, AppendsPerStep);
        run.Checkpoint();
        IReadOnlyList<string> unCheckpointed = await run.AppendAsync("not-checkpointed", Appenders, AppendsPerStep);
        await run.CrashAsync();
        await HostAssert.CleanAsync(run);

        await ReopenAndFindAsync([.. checkpointed, .. unCheckpointed], "after a crash and a reopen");
    }

    /// <summary>Rule 5: once the host has stopped, with appends in flight when it was asked to, nothing is added to the closed filter.</summary>
    [Fact]
    public async Task A_clean_stop_adds_nothing_after_the_filter_closes()
    {
        KitRun run = await StartAsync(SmallSize);
        Task[] inFlight = [.. Enumerable.Range(0, AppendsPerStep / 4).Select(i => run.Host.AppendAsync($"stopping-{i}", CancellationToken.None))];
        await run.StopAsync();
        foreach (Task append in inFlight)
        {
            // Each one completes or is refused once the host stops; either way, nothing may reach the closed filter.
            await run.UntilAsync(Task.WhenAny(append), "an append in flight when the host was asked to stop");
        }

        await HostAssert.CleanAsync(run);
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Stops a host that a failed test left running, then deletes the test's directories.</summary>
    protected virtual void Dispose(bool disposing)
    {
        _run?.Abandon();
        _processes?.Abandon();
        try
        {
            Directory.Delete(_root, recursive: true);
        }
        catch (IOException)
        {
            // A failed test may still hold a file open; a leftover temporary directory is harmless.
        }
    }

    // Start at sizeBytes, append, then keep one task appending while prepare (which returns how to start the build) and
    // the race run; every stream acknowledged meanwhile must be found after the build. The run is left started.
    private async Task<KitRun> BuildWhileAppendingAsync(long sizeBytes, string what, Func<KitRun, Func<Task>> prepare)
    {
        KitRun run = await StartAsync(sizeBytes);
        string prefix = what.Replace(' ', '-');
        IReadOnlyList<string> before = await run.AppendAsync($"before-{prefix}", Appenders, AppendsPerStep);
        Task<IReadOnlyList<string>> during = run.AppendAsync($"during-{prefix}", 1, AppendsPerStep);
        await RaceAnAddWithTheBuildAsync(run, what, prepare(run));
        HostAssert.EveryStreamFound(run, [.. before, .. await during], $"after the {what} raced by appends");
        return run;
    }

    // A restart after the host and its filter stopped, cleanly or not: every stream given must be found, and nothing reported.
    private async Task ReopenAndFindAsync(IReadOnlyList<string> streams, string when)
    {
        KitRun reopened = await StartAsync(SmallSize);
        HostAssert.EveryStreamFound(reopened, streams, when);
        await reopened.StopAsync();
        await HostAssert.CleanAsync(reopened);
    }

    private async Task<KitRun> StartAsync(long sizeBytes) =>
        _run = await KitRun.StartAsync(StartHostAsync, HostDirectory, FilterDirectory, sizeBytes, _adds, TimeProvider).ConfigureAwait(false);

    // The race of docs/design.md, "Resize", step 2, alone (the other appends pause at its gate, and go on after): hold the
    // filter's view of the log, append one stream (durable to the host, not yet to the filter, and added before the
    // build exists), start the build, and release the log only once the build's catch-up has read everything visible or
    // the build is done. The build must not swap in without that record.
    private static Task RaceAnAddWithTheBuildAsync(KitRun run, string what, Func<Task> build) => run.AloneAsync(async () =>
    {
        long heldAt = run.Log.Hold();
        string held = $"held-during-{what.Replace(' ', '-')}";
        await run.UntilAsync(run.Host.AppendAsync(held, CancellationToken.None), $"the append of '{held}'");
        Task readTheHeldEnd = run.Observer.WhenCheckpointed(run.BuildPath, heldAt);
        Task built = build();
        await run.UntilAsync(Task.WhenAny(readTheHeldEnd, built), $"the {what}'s catch-up up to the held end");

        // A checkpoint at the held end may be one the catch-up takes on its way (every so many records), before it
        // looks at the end again: release only once it has, so that it decides on the held end, finishing or waiting.
        await run.UntilAsync(Task.WhenAny(run.Log.NextEndRead(), built), $"the {what}'s catch-up to look at the held end");
        run.Log.Release();
        await run.UntilAsync(built, $"the {what}");
        if (!run.Filter.MightExist(held))
        {
            long given = run.Filter.Adds.Where(a => a.Stream == held).Select(a => a.RecordEnd).DefaultIfEmpty(-1).Max();
            throw new XunitException($"{HostContractRules.Rule2}: the {what} swapped in its new file without the record of '{held}', which was not yet durable to the filter when its name was added: the record end given with the add ({given}) did not reach past the log's durable end then ({heldAt}), so the build did not wait for the record. Give each add the position just past its record.");
        }
    });
}
