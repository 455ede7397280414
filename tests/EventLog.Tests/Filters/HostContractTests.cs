using EventLog.Streams;

namespace EventLog.Tests.Filters;

/// <summary>The engine keeps the filter's host contract (docs/design.md, "Host contract").</summary>
public sealed class HostContractTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Every_appended_name_is_added_and_the_hosts_filter_is_never_checkpointed_by_the_engine()
    {
        var filter = new RecordingFilter();
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(Engines.Options(_directory.Path) with { FilterCheckpointInterval = TimeSpan.FromMilliseconds(1) });
        engine.Start(filter);
        await Engines.AppendNewStreamsAsync(engine, "named", 200);

        Assert.Equal(Enumerable.Range(0, 200).Select(i => $"named-{i}").Order(), filter.Added.Order());
        InvalidOperationException refused = Assert.Throws<InvalidOperationException>(() => engine.CheckpointFilter());
        Assert.Contains("its host checkpoints it", refused.Message, StringComparison.Ordinal);
        await engine.StopAsync();
        await engine.DisposeAsync();
        Assert.Empty(filter.Checkpoints);
    }

    [Fact]
    public async Task Each_name_is_added_with_the_end_of_its_last_record_across_segment_rolls()
    {
        // What a resize and a checkpoint rely on (docs/design.md, "Host contract"): the end given with a name is the
        // position just past the append's last record, in the positions the log's ReadAsync reports.
        var filter = new RecordingFilter();
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(Engines.Options(_directory.Path) with { SegmentSizeBytes = 64 * 1024 });
        engine.Start(filter);
        var positions = new List<long>();
        for (int i = 0; i < 200; i++)
        {
            EventData[] events = [.. Enumerable.Repeat(Engines.Event(data: new string((char)(97 + (i % 26)), i * 8)), 1 + (i % 3))];
            positions.Add((await engine.AppendAsync($"covered-{i}", ExpectedVersion.NoStream, events)).LogPosition);
        }

        positions.Add(engine.EndPosition);
        Assert.All(Enumerable.Range(0, 200), i => Assert.Equal(positions[i + 1], filter.RecordEnds[$"covered-{i}"]));
    }

    [Fact]
    public async Task A_rejected_append_adds_nothing_to_the_filter()
    {
        var filter = new RecordingFilter();
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(Engines.Options(_directory.Path));
        engine.Start(filter);
        await Assert.ThrowsAsync<Errors.WrongExpectedVersionException>(() => engine.AppendAsync("never", ExpectedVersion.Exact(3), Engines.Event()));
        Assert.Empty(filter.Added);
    }

    [Fact]
    public async Task A_torn_tail_cut_on_open_is_passed_on_as_a_truncation()
    {
        await using (EventLogEngine writer = await Engines.StartAsync(Engines.Options(_directory.Path)))
        {
            await writer.AppendAsync("s", ExpectedVersion.Any, Engines.Event());
        }

        string segment = Directory.GetFiles(_directory.File("log")).Single();
        await using (FileStream file = File.OpenWrite(segment))
        {
            file.Seek(0, SeekOrigin.End);
            file.Write(new byte[40]);
        }

        var filter = new RecordingFilter();
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(Engines.Options(_directory.Path));
        engine.Start(filter);
        Assert.Equal([engine.EndPosition], filter.Truncations);
    }
}
