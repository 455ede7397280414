using EventLog.Streams;

namespace EventLog.Tests.Filters;

/// <summary>The engine keeps the filter's host contract (docs/design.md, "Host contract").</summary>
public sealed class HostContractTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Every_appended_name_is_added_and_checkpoints_claim_only_the_durable_end()
    {
        var filter = new RecordingFilter();
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(Engines.Options(_directory.Path));
        engine.Start(filter);
        await Engines.AppendNewStreamsAsync(engine, "named", 200);

        Assert.Equal(Enumerable.Range(0, 200).Select(i => $"named-{i}").Order(), filter.Added.Order());
        Assert.Equal(engine.EndPosition, engine.CheckpointFilter());
        await engine.StopAsync();
        Assert.All(filter.Checkpoints, p => Assert.Equal(engine.EndPosition, p));
        Assert.Equal(2, filter.Checkpoints.Count);
    }

    [Fact]
    public async Task Each_name_is_added_only_once_the_appended_end_covers_its_record()
    {
        // What a resize relies on (docs/design.md, "Resize"): a name added before the new file existed has its record
        // inside the appended end the resize reads next, even though the record is not durable yet.
        var filter = new RecordingFilter();
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(Engines.Options(_directory.Path) with { SegmentSizeBytes = 64 * 1024 });
        filter.AppendedEnd = () => engine.AppendedEndPosition;
        engine.Start(filter);
        var positions = new Dictionary<string, long>();
        for (int i = 0; i < 200; i++)
        {
            string name = $"covered-{i}";
            positions[name] = (await engine.AppendAsync(name, ExpectedVersion.NoStream, Engines.Event(data: new string((char)(97 + (i % 26)), i * 8)))).LogPosition;
        }

        Assert.All(positions, p => Assert.True(filter.AppendedEndAtAdd[p.Key] > p.Value, $"{p.Key} at {p.Value} was added at appended end {filter.AppendedEndAtAdd[p.Key]}"));
        Assert.Equal(engine.EndPosition, engine.AppendedEndPosition);
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
