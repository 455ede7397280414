using EventLog.Errors;
using EventLog.Records;
using EventLog.Segments;
using EventLog.Streams;
using EventLog.Tests.Filters;

namespace EventLog.Tests.Writing;

/// <summary>
/// ENOSPC at every point of a group commit (samples/EventLog/README.md, "Durability"): an append answered as refused
/// (<see cref="EngineStoppedException"/>) is not in the log after a restart, every acknowledged one is, and one whose
/// fate the engine cannot know is answered <see cref="AppendOutcomeUnknownException"/>, never as refused. Pins the
/// failure where appends refused on a full disk were in the log after the restart: records of the failed commit that
/// had reached the file (a short write, a write whose fsync failed, the part written before a roll) were whole
/// appends to recovery.
/// </summary>
public sealed class FullDiskCommitTests : IDisposable
{
    private const int RecordBytes = 8_000; // names of 6 bytes, type "E", no metadata
    private const int Batch = 4;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    // (where, does the failing commit roll to a new segment after its first two appends, the step, its occurrence in
    // that commit, bytes of a failing write that land first)
    public static TheoryData<string, bool, string, int, int> RefusedPoints => new()
    {
        { "before the write", false, nameof(WriteStep.Write), 1, 0 },
        { "after a short write of two whole appends and half of the third", false, nameof(WriteStep.Write), 1, (2 * RecordBytes) + (RecordBytes / 2) },
        { "at the fsync, the whole commit written", false, nameof(WriteStep.Sync), 1, 0 },
        { "at a roll, fsyncing the full segment", true, nameof(WriteStep.Sync), 1, 0 },
        { "at a roll, creating the next segment", true, nameof(WriteStep.CreateSegment), 1, 0 },
        { "after a roll, a short write into the next segment", true, nameof(WriteStep.Write), 2, RecordBytes + (RecordBytes / 2) },
        { "after a roll, at the fsync of the next segment", true, nameof(WriteStep.Sync), 2, 0 },
    };

    [Theory]
    [MemberData(nameof(RefusedPoints))]
    public async Task A_commit_failing_on_a_full_disk_refuses_its_appends_and_none_of_them_is_in_the_log_after_a_restart(string where, bool rolls, string step, int occurrence, int landed)
    {
        using FullDisk disk = new FullDisk().FailAt(Enum.Parse<WriteStep>(step), occurrence, landed);
        var filter = new RecordingFilter();
        (List<string> acknowledged, Task<AppendResult>[] failing, long acknowledgedEnd) = await FailOneCommitAsync(disk, filter, rolls);

        foreach (Task<AppendResult> append in failing)
        {
            EngineStoppedException refused = await Assert.ThrowsAsync<EngineStoppedException>(() => append);
            Assert.Contains("No space left on device", refused.Message, StringComparison.Ordinal);
        }

        await using EventLogEngine reopened = await Engines.StartAsync(Options());
        Assert.True(reopened.LogRecovery.End == acknowledgedEnd, $"{where}: the log ends at {reopened.LogRecovery.End}, not at the last acknowledged append's end {acknowledgedEnd}");
        Assert.Equal(0, reopened.LogRecovery.TruncatedBytes); // cut back before the refusals were answered
        AssertAcknowledged(reopened, acknowledged);
        for (int i = 0; i < Batch; i++)
        {
            Assert.True(reopened.GetLastEventNumber(Name("new", i)) == -1, $"{where}: {Name("new", i)} was refused but is in the log");
        }

        await reopened.AppendAsync(Name("aft", 0), ExpectedVersion.NoStream, Event());
        Assert.Contains(acknowledgedEnd, filter.Truncations); // host contract rule 4: the filter heard of the cut
    }

    // When the cut itself fails, the appends whose records reached the file are answered "outcome unknown"; those
    // never handed to the disk are still refused, and are not in the log after the restart.
    [Theory]
    [InlineData(false, nameof(WriteStep.Write), 1, (2 * RecordBytes) + (RecordBytes / 2), nameof(WriteStep.Truncate), Batch, 0)]
    [InlineData(false, nameof(WriteStep.Sync), 1, 0, nameof(WriteStep.Truncate), Batch, 0)]
    [InlineData(true, nameof(WriteStep.CreateSegment), 1, 0, nameof(WriteStep.Truncate), 2, 2)]
    [InlineData(true, nameof(WriteStep.Write), 2, RecordBytes / 2, nameof(WriteStep.DeleteSegment), Batch, 0)]
    public async Task When_the_cut_back_fails_too_the_appends_written_are_answered_outcome_unknown_never_refused(
        bool rolls, string step, int occurrence, int landed, string cutStep, int unknown, int refused)
    {
        using FullDisk disk = new FullDisk().FailAt(Enum.Parse<WriteStep>(step), occurrence, landed).FailAt(Enum.Parse<WriteStep>(cutStep));
        (List<string> acknowledged, Task<AppendResult>[] failing, _) = await FailOneCommitAsync(disk, new RecordingFilter(), rolls);

        for (int i = 0; i < unknown; i++)
        {
            AppendOutcomeUnknownException answer = await Assert.ThrowsAsync<AppendOutcomeUnknownException>(() => failing[i]);
            Assert.Contains("No space left on device", answer.Message, StringComparison.Ordinal);
        }

        for (int i = unknown; i < unknown + refused; i++)
        {
            await Assert.ThrowsAsync<EngineStoppedException>(() => failing[i]);
        }

        await using EventLogEngine reopened = await Engines.StartAsync(Options());
        AssertAcknowledged(reopened, acknowledged);
        for (int i = unknown; i < unknown + refused; i++)
        {
            Assert.Equal(-1, reopened.GetLastEventNumber(Name("new", i)));
        }
    }

    // Acknowledged appends fill the first segment so that the failing commit's four appends fit in it, or roll to the
    // next segment after the first two (a 64 KiB segment holds 8 records of 8,000 bytes). The last acknowledged append
    // holds the writer in its fsync while the four are queued, so they go into one commit, the failing one.
    private async Task<(List<string> Acknowledged, Task<AppendResult>[] Failing, long AcknowledgedEnd)> FailOneCommitAsync(FullDisk disk, RecordingFilter filter, bool rolls)
    {
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(Options());
        engine.Start(filter);
        engine.DiskFaults = disk.Before;
        var acknowledged = new List<string>();
        int before = rolls ? 5 : 1;
        for (int i = 0; i < before; i++)
        {
            AppendResult written = await engine.AppendAsync(Name("ack", i), ExpectedVersion.NoStream, Event());
            Assert.Equal((i + 1) * (long)RecordBytes, written.CommitPosition);
            acknowledged.Add(Name("ack", i));
        }

        disk.HoldNextSync();
        Task<AppendResult> holding = engine.AppendAsync(Name("blk", 0), ExpectedVersion.NoStream, Event());
        await disk.Held.WaitAsync(TimeSpan.FromMinutes(1));
        Task<AppendResult>[] failing = [.. Enumerable.Range(0, Batch).Select(i => engine.AppendAsync(Name("new", i), ExpectedVersion.NoStream, Event()))];
        disk.Release();
        long acknowledgedEnd = (await holding).CommitPosition;
        acknowledged.Add(Name("blk", 0));
        await Task.WhenAll(failing).ContinueWith(_ => { }, TaskScheduler.Default).WaitAsync(TimeSpan.FromMinutes(1));
        Assert.NotNull(engine.Failure);
        await Assert.ThrowsAsync<EngineStoppedException>(() => engine.AppendAsync(Name("aft", 0), ExpectedVersion.NoStream, Event()));
        return (acknowledged, failing, acknowledgedEnd);
    }

    private static void AssertAcknowledged(EventLogEngine engine, List<string> acknowledged)
    {
        foreach (string stream in acknowledged)
        {
            Assert.True(engine.GetLastEventNumber(stream) == 0, $"{stream} was acknowledged but is not in the log");
        }
    }

    private EventLogOptions Options() => Engines.Options(_directory.Path) with { SegmentSizeBytes = 64 * 1024 };

    private static string Name(string kind, int i) => $"{kind}-{i:D2}";

    private static EventData Event() => Engines.Event("E", new string('x', RecordBytes - RecordHeader.Overhead - 6 - 1));
}
