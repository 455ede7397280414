using static EventFilter.Tests.Durability.FilterHarness;

namespace EventFilter.Tests.Durability;

public sealed class CheckpointAndCrashTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_crash_after_a_checkpoint_loses_unflushed_adds_but_catch_up_restores_them()
    {
        var log = new InMemoryStreamLog();
        var options = Options(_dir);
        FilterImage durableImage;
        using (StreamExistenceFilter filter = await OpenReadyAsync(options, log))
        {
            Append(log, filter, 0, 20_000);
            filter.Checkpoint(log.EndPosition);
            durableImage = FilterImage.Capture(options.FilterPath);
            Append(log, filter, 20_000, 20_000);
            filter.Checkpoint(log.EndPosition);
        }

        // The crash: everything after the first checkpoint never reached the disk.
        durableImage.RestoreTo(options.FilterPath);

        var reader = new InMemoryStreamLog();
        for (int i = 0; i < 40_000; i++)
        {
            reader.Append(Names.Added(i));
        }

        using StreamExistenceFilter reopened = await OpenReadyAsync(options, reader);
        Assert.Equal(20_000, reader.RecordsRead);
        Assert.Equal(0, FalseNegatives(reopened, 40_000));
        Assert.Equal(40_000, reopened.CheckpointPosition);
    }

    [Fact]
    public async Task Before_catch_up_every_lookup_answers_maybe_and_nothing_throws()
    {
        var log = new InMemoryStreamLog();
        for (int i = 0; i < 1000; i++)
        {
            log.Append(Names.Added(i));
        }

        using var filter = new StreamExistenceFilter(Options(_dir), log);
        Assert.True(filter.MightExist("never-written"));
        filter.Open();
        Assert.Equal(FilterState.Initializing, filter.State);
        Assert.True(filter.MightExist("never-written"));
        Assert.False(filter.WhenReady.IsCompleted);
        await filter.CatchUpAsync(CancellationToken.None);
        Assert.True(filter.WhenReady.IsCompletedSuccessfully);
        Assert.False(filter.MightExist("never-written"));
        Assert.Equal(0, FalseNegatives(filter, 1000));
    }

    [Fact]
    public async Task CatchUpAsync_returns_to_its_caller_before_catching_up_even_when_the_log_answers_synchronously()
    {
        // Regression for a flaky first version that let the read fail at once and asserted Initializing: a loaded
        // machine could run the background catch-up to Failed first. Here every read blocks until the test opens the
        // gate, which it does only after the call has returned; had the call run inline, the read would give up
        // after a minute and the call would return a Failed filter.
        using var gate = new ManualResetEventSlim();
        var log = new InMemoryStreamLog { SynchronousGate = gate };
        log.Append("x");
        using var filter = new StreamExistenceFilter(Options(_dir), log);
        filter.Open();
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);
        Assert.Equal(FilterState.Initializing, filter.State);
        gate.Set();
        await catchUp;
        Assert.Equal(FilterState.Ready, filter.State);
    }

    [Fact]
    public async Task Catch_up_reports_its_progress_to_an_IProgress()
    {
        var log = new InMemoryStreamLog();
        for (int i = 0; i < 3_000; i++)
        {
            log.Append(Names.Added(i));
        }

        var reports = new List<CatchUpProgress>();
        var progress = new SynchronousProgress(reports.Add);
        using StreamExistenceFilter filter = await OpenReadyAsync(new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = 1 << 20, CatchUpProgress = progress }, log);
        // A report per second of catch-up and a final one: how many depends on the machine's speed, so only the
        // last is checked (the first version assumed one, i.e. a catch-up under a second).
        Assert.NotEmpty(reports);
        CatchUpProgress last = reports[^1];
        Assert.Equal(3_000, last.Records);
        Assert.Equal(last.EndPosition, last.Position);
        Assert.Equal(3_000, last.Position);
    }

    /// <summary>Progress&lt;T&gt; posts to the thread pool; this one reports inline, so the test sees it at once.</summary>
    private sealed class SynchronousProgress(Action<CatchUpProgress> report) : IProgress<CatchUpProgress>
    {
        public void Report(CatchUpProgress value) => report(value);
    }

    [Theory]
    [InlineData("missing")]
    [InlineData("garbage")]
    [InlineData("empty")]
    [InlineData("stale")]
    public async Task An_unusable_checkpoint_means_a_full_catch_up_with_no_false_negative(string damage)
    {
        var log = new InMemoryStreamLog();
        var options = Options(_dir);
        await WriteCheckpointedAsync(options, log, 5_000);

        string checkpoint = CheckpointFile.PathFor(options.FilterPath);
        switch (damage)
        {
            case "missing": File.Delete(checkpoint); break;
            case "garbage": File.WriteAllBytes(checkpoint, new byte[64].Select((_, i) => (byte)(i * 37)).ToArray()); break;
            case "empty": File.WriteAllBytes(checkpoint, []); break;
            case "stale": CheckpointFile.Write(checkpoint, new Checkpoint(5_000, Guid.NewGuid())); break;
        }

        var observer = new RecordingObserver();
        var reader = new InMemoryStreamLog();
        for (int i = 0; i < 5_000; i++)
        {
            reader.Append(Names.Added(i));
        }

        using StreamExistenceFilter reopened = await OpenReadyAsync(options, reader, observer);
        Assert.Single(observer.IgnoredCheckpoints);
        Assert.Equal(5_000, reader.RecordsRead);
        Assert.Equal(0, FalseNegatives(reopened, 5_000));
    }

    [Fact]
    public async Task Truncation_rewinds_the_checkpoint_across_a_restart()
    {
        var log = new InMemoryStreamLog();
        var options = Options(_dir);
        using (StreamExistenceFilter filter = await OpenReadyAsync(options, log))
        {
            Append(log, filter, 0, 3_000);
            filter.Checkpoint(3_000);
            filter.TruncateTo(1_000);
            Assert.Equal(1_000, filter.CheckpointPosition);
        }

        Assert.Equal(1_000, CheckpointFile.TryRead(CheckpointFile.PathFor(options.FilterPath))!.Position);
        log.TruncateTo(1_000);
        using StreamExistenceFilter reopened = await OpenReadyAsync(options, log);
        Assert.Equal(1_000, reopened.CheckpointPosition);
        Assert.Equal(0, FalseNegatives(reopened, 1_000));
    }

    [Fact]
    public async Task A_checkpoint_beyond_the_logs_end_is_moved_back_to_it()
    {
        var log = new InMemoryStreamLog();
        var options = Options(_dir);
        await WriteCheckpointedAsync(options, log, 2_000);

        log.TruncateTo(500); // the log lost its tail while the server was down
        var observer = new RecordingObserver();
        using StreamExistenceFilter reopened = await OpenReadyAsync(options, log, observer);
        Assert.Equal([(2_000L, 500L)], observer.Truncations);
        Assert.Equal(500, reopened.CheckpointPosition);
    }

    [Fact]
    public async Task Size_zero_makes_no_file_and_answers_maybe()
    {
        var log = new InMemoryStreamLog();
        using var filter = new StreamExistenceFilter(Options(_dir, size: 0), log);
        filter.Open();
        await filter.CatchUpAsync(CancellationToken.None);
        filter.Add("stream-a", 1);
        filter.Checkpoint(10);
        Assert.Equal(FilterState.Disabled, filter.State);
        Assert.True(filter.MightExist("stream-b"));
        Assert.Null(filter.CheckpointPosition);
        Assert.Empty(Directory.GetFiles(_dir.Path));
    }

    [Fact]
    public async Task More_than_the_threshold_corrupted_rebuilds_and_catches_up()
    {
        var log = new InMemoryStreamLog();
        var options = Options(_dir, size: 64 * 1000);
        await WriteCheckpointedAsync(options, log, 10_000);

        Integrity.CorruptionTests.CorruptRandomLines(options.FilterPath, 0.2, seed: 3);
        var observer = new RecordingObserver();
        using StreamExistenceFilter reopened = await OpenReadyAsync(options, log, observer);
        Assert.Equal([RebuildReason.TooCorrupted], observer.Rebuilds);
        Assert.Equal(0, reopened.Verification!.CorruptedLines);
        Assert.Equal(0, FalseNegatives(reopened, 10_000));
    }

    [Theory]
    [InlineData("header")]
    [InlineData("truncated")]
    [InlineData("deleted")]
    public async Task A_damaged_or_missing_file_is_rebuilt_from_the_log(string damage)
    {
        var log = new InMemoryStreamLog();
        var options = Options(_dir);
        await WriteCheckpointedAsync(options, log, 5_000);

        switch (damage)
        {
            case "header": File.WriteAllBytes(options.FilterPath, File.ReadAllBytes(options.FilterPath).Select((b, i) => i < 64 ? (byte)0x42 : b).ToArray()); break;
            case "truncated": using (var s = new FileStream(options.FilterPath, FileMode.Open)) { s.SetLength(s.Length / 2); } break;
            case "deleted": File.Delete(options.FilterPath); break;
        }

        var observer = new RecordingObserver();
        using StreamExistenceFilter reopened = await OpenReadyAsync(options, log, observer);
        Assert.Single(observer.Rebuilds);
        Assert.Equal(0, FalseNegatives(reopened, 5_000));
    }
}
