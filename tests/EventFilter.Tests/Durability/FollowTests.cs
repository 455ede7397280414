namespace EventFilter.Tests.Durability;

/// <summary>
/// Follow mode (docs/design.md, "Following the log"): a filter keeps reading the log behind its end, so that it learns
/// what other processes append to the same log; "definitely not" then means no record below its read position, and
/// a checkpoint claims no more than it has read.
/// </summary>
public sealed class FollowTests : IDisposable
{
    private readonly TempDirectory _a = new();
    private readonly TempDirectory _b = new();
    private readonly InMemoryStreamLog _log = new() { MaxPerRead = 500 };

    public void Dispose()
    {
        _a.Dispose();
        _b.Dispose();
    }

    [Fact]
    public async Task A_follower_learns_another_processs_streams_woken_by_the_logs_signal()
    {
        // A poll of a minute: a prompt answer can only come from the log's signal.
        using var stop = new CancellationTokenSource();
        using StreamExistenceFilter writer = Open(_a), reader = Open(_b, poll: TimeSpan.FromMinutes(1));
        Task writing = writer.CatchUpAsync(stop.Token), reading = reader.CatchUpAsync(stop.Token);
        await Task.WhenAll(writer.WhenReady, reader.WhenReady);
        Assert.False(reader.MightExist("order-1"));

        long end = Append(writer, "order-1");
        await reader.WaitForReadPositionAsync(end, CancellationToken.None).WaitAsync(Poll.Bound);

        Assert.True(reader.MightExist("order-1"));
        Assert.True(reader.ReadPosition >= end);
        await StopAsync(stop, writing, reading);
    }

    [Fact]
    public async Task A_follower_without_a_signal_polls_on_its_clock()
    {
        var time = new SteppedTime();
        var log = new SignallessLog(_log);
        using var stop = new CancellationTokenSource();
        using StreamExistenceFilter reader = Open(_b, log: log, time: time, poll: TimeSpan.FromSeconds(1));
        Task reading = reader.CatchUpAsync(stop.Token);
        await reader.WhenReady;
        await time.NextWaitAsync(); // parked on its poll

        long end = _log.Append("order-1");
        Assert.False(reader.MightExist("order-1")); // not yet read: the poll has not come
        time.Advance(TimeSpan.FromSeconds(1));
        await reader.WaitForReadPositionAsync(end, CancellationToken.None).WaitAsync(Poll.Bound);

        Assert.True(reader.MightExist("order-1"));
        await StopAsync(stop, reading);
    }

    /// <summary>A broken notification channel must cost a poll interval per wake, never a busy loop.</summary>
    [Fact]
    public async Task A_signal_that_throws_is_counted_and_the_poll_waited_out()
    {
        var time = new SteppedTime();
        var observer = new RecordingObserver();
        using var stop = new CancellationTokenSource();
        using StreamExistenceFilter filter = Open(_b, log: new BrokenSignalLog(_log), time: time, observer: observer, poll: TimeSpan.FromSeconds(1));
        Task reading = filter.CatchUpAsync(stop.Token);
        await filter.WhenReady;

        await time.NextWaitAsync(); // the poll, which the failed signal leaves it parked on
        Poll.Until(() => observer.LogFailures.Count > 0, "the signal's failure to be counted");
        Assert.Single(observer.LogFailures); // and no more while the clock stands still: no busy loop
        long end = _log.Append("order-1");
        time.Advance(TimeSpan.FromSeconds(1));
        await filter.WaitForReadPositionAsync(end, CancellationToken.None).WaitAsync(Poll.Bound);
        Assert.True(filter.MightExist("order-1"));
        await StopAsync(stop, reading);
    }

    /// <summary>A follower that claimed what its own adds reached, as a single-process filter may, would claim the other process's records it never read.</summary>
    [Fact]
    public async Task A_checkpoint_claims_no_more_than_the_follower_has_read()
    {
        using var stop = new CancellationTokenSource();
        using StreamExistenceFilter filter = Open(_b);
        Task reading = filter.CatchUpAsync(stop.Token);
        await filter.WhenReady;
        long readTo = filter.ReadPosition;

        _log.Gate = new TaskCompletionSource(); // the follower's next read is held
        _log.Append("other-process-1");
        _log.Append("other-process-2");
        Append(filter, "own-1"); // this process's own append, past the other's
        filter.Checkpoint(_log.EndPosition);

        Assert.Equal(readTo, filter.ReadPosition);
        Assert.Equal(readTo, filter.CheckpointPosition);

        _log.Gate.SetResult();
        await filter.WaitForReadPositionAsync(_log.EndPosition, CancellationToken.None).WaitAsync(Poll.Bound);
        filter.Checkpoint(_log.EndPosition);
        Assert.Equal(_log.EndPosition, filter.CheckpointPosition);
        Assert.True(filter.MightExist("other-process-1") && filter.MightExist("other-process-2"));
        await StopAsync(stop, reading);
    }

    [Fact]
    public async Task A_follower_whose_log_throws_keeps_its_position_and_goes_on_when_the_log_answers()
    {
        var time = new SteppedTime();
        var observer = new RecordingObserver();
        using var stop = new CancellationTokenSource();
        using StreamExistenceFilter filter = Open(_b, time: time, observer: observer, poll: TimeSpan.FromSeconds(1));
        Task reading = filter.CatchUpAsync(stop.Token);
        await filter.WhenReady;
        long readTo = filter.ReadPosition;

        _log.FailNextReads = int.MaxValue;
        long end = _log.Append("order-1");
        for (int i = 0; i < 10 && observer.LogUnavailabilities.Count == 0; i++)
        {
            await time.NextWaitAsync();
            time.Advance(TimeSpan.FromSeconds(1));
        }

        Assert.Single(observer.LogUnavailabilities);
        Assert.Equal(readTo, filter.ReadPosition);
        Assert.Equal(FilterState.Ready, filter.State);
        Assert.True(filter.FollowLag >= TimeSpan.FromSeconds(5), $"lag {filter.FollowLag}");

        _log.FailNextReads = 0;
        await time.NextWaitAsync();
        time.Advance(TimeSpan.FromSeconds(1));
        await filter.WaitForReadPositionAsync(end, CancellationToken.None).WaitAsync(Poll.Bound);
        Assert.True(filter.MightExist("order-1"));
        Assert.Single(observer.LogRecoveries);
        await StopAsync(stop, reading);
    }

    /// <summary>
    /// Two processes over one log, each appending through its own filter; one is killed mid-load (its filter closed
    /// with no final checkpoint, so what it had not checkpointed is lost) and restarted. Every record below each
    /// filter's read position must be answered "maybe", whenever it is asked.
    /// </summary>
    [Fact]
    public async Task Two_filters_over_one_log_one_killed_and_restarted_mid_load_answer_maybe_below_their_positions()
    {
        const int PerWriter = 20_000;
        using var stopA = new CancellationTokenSource();
        using StreamExistenceFilter a = Open(_a);
        Task followingA = a.CatchUpAsync(stopA.Token);
        var stopB = new CancellationTokenSource();
        StreamExistenceFilter b = Open(_b);
        Task followingB = b.CatchUpAsync(stopB.Token);
        await Task.WhenAll(a.WhenReady, b.WhenReady);

        Task writerA = Task.Run(() => Write(a, "a", 0, PerWriter));
        Write(b, "b", 0, PerWriter / 2);
        AssertBelowPositionFound(b);

        // Kill B: no final checkpoint, so its file keeps only what its last checkpoint made durable.
        await stopB.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => followingB);
        b.Dispose();
        stopB.Dispose();

        using var stopB2 = new CancellationTokenSource();
        using StreamExistenceFilter restarted = Open(_b);
        Task followingB2 = restarted.CatchUpAsync(stopB2.Token);
        Write(restarted, "b", PerWriter / 2, PerWriter, untilReady: true);
        await writerA;

        foreach (StreamExistenceFilter filter in new[] { a, restarted })
        {
            AssertBelowPositionFound(filter);
            await filter.WaitForReadPositionAsync(_log.EndPosition, CancellationToken.None).WaitAsync(Poll.Bound);
            AssertBelowPositionFound(filter);
            Assert.Equal(2 * PerWriter, filter.ReadPosition);
        }

        await StopAsync(stopA, followingA);
        await StopAsync(stopB2, followingB2);
    }

    /// <summary>
    /// A resize while following: the follower keeps the old file current and sends each batch to the new one too, so
    /// after the swap every record below the read position is in the new file, another process's appends during the
    /// build included.
    /// </summary>
    [Fact]
    public async Task A_resize_while_following_keeps_every_record_below_the_read_position()
    {
        _log.AppendRange(0, 20_000);
        using (StreamExistenceFilter first = Open(_b))
        {
            using var stopFirst = new CancellationTokenSource();
            Task firstFollowing = first.CatchUpAsync(stopFirst.Token);
            await first.WhenReady;
            first.Checkpoint(_log.EndPosition);
            await StopAsync(stopFirst, firstFollowing);
        }

        using var stop = new CancellationTokenSource();
        using StreamExistenceFilter resized = Open(_b, sizeBytes: 4 * 1024 * 1024);
        Assert.Equal(1024 * 1024, resized.ServingSizeBytes);
        Task following = resized.CatchUpAsync(stop.Token);
        int appended = 0;
        while (resized.ServingSizeBytes != 4 * 1024 * 1024)
        {
            _log.Append($"other-{appended++}"); // another process, during the build
            if (appended % 50 == 0)
            {
                AssertBelowPositionFound(resized);
            }

            await Task.Yield();
        }

        for (int i = 0; i < 100; i++)
        {
            _log.Append($"other-{appended++}");
        }

        await resized.WaitForReadPositionAsync(_log.EndPosition, CancellationToken.None).WaitAsync(Poll.Bound);
        AssertBelowPositionFound(resized);
        await StopAsync(stop, following);
    }

    // A process's appends: to the log, then to its own filter, checkpointing every 1,000 as a host's timer would.
    private void Write(StreamExistenceFilter filter, string process, int from, int to, bool untilReady = false)
    {
        for (int i = from; i < to; i++)
        {
            Append(filter, $"{process}-{i}");
            if (i % 1000 == 0)
            {
                filter.Checkpoint(_log.EndPosition);
                if (!untilReady || filter.State == FilterState.Ready)
                {
                    AssertBelowPositionFound(filter);
                }
            }
        }
    }

    private long Append(StreamExistenceFilter filter, string name)
    {
        long end = _log.Append(name);
        filter.Add(name, end);
        return end;
    }

    private void AssertBelowPositionFound(StreamExistenceFilter filter)
    {
        if (filter.State != FilterState.Ready)
        {
            return; // it answers "maybe" for everything
        }

        long position = filter.ReadPosition, missing = 0;
        for (long end = 1; end <= position; end++)
        {
            missing += filter.MightExist(_log.NameEndingAt(end)) ? 0 : 1;
        }

        Assert.True(missing == 0, $"{missing} records below read position {position} answered \"definitely not\"");
    }

    private StreamExistenceFilter Open(TempDirectory dir, IStreamNameLog? log = null, TimeProvider? time = null, RecordingObserver? observer = null, TimeSpan? poll = null, long sizeBytes = 1024 * 1024)
    {
        var filter = new StreamExistenceFilter(
            new StreamExistenceFilterOptions
            {
                DataDirectory = dir.Path,
                SizeBytes = sizeBytes,
                FollowLog = true,
                FollowPollInterval = poll ?? TimeSpan.FromMilliseconds(100),
                TimeProvider = time ?? TimeProvider.System,
            },
            log ?? _log,
            observer);
        filter.Open();
        return filter;
    }

    private static async Task StopAsync(CancellationTokenSource stop, params Task[] following)
    {
        await stop.CancelAsync();
        foreach (Task task in following)
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => task.WaitAsync(Poll.Bound));
        }
    }

    /// <summary>The log with a notification channel that is down: every wait on it throws.</summary>
    private sealed class BrokenSignalLog(IStreamNameLog log) : IStreamNameLog, IStreamNameLogSignal
    {
        public long EndPosition => log.EndPosition;

        public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken) => log.ReadAsync(fromPosition, batch, cancellationToken);

        public ValueTask WaitForAppendAsync(long endPosition, CancellationToken cancellationToken) =>
            ValueTask.FromException(new IOException("simulated: the notification connection is down"));
    }

    /// <summary>The same log without its append signal: a follower can only poll it.</summary>
    private sealed class SignallessLog(IStreamNameLog log) : IStreamNameLog
    {
        public long EndPosition => log.EndPosition;

        public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken) => log.ReadAsync(fromPosition, batch, cancellationToken);
    }
}
