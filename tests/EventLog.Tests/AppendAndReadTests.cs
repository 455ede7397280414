using EventLog.Streams;

namespace EventLog.Tests;

public sealed class AppendAndReadTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Appended_events_read_back_in_order_with_type_data_and_metadata()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        AppendResult first = await engine.AppendAsync("order-1", ExpectedVersion.NoStream, [Engines.Event("Placed", "a", "m0"), Engines.Event("Paid", "b")]);
        AppendResult second = await engine.AppendAsync("order-1", ExpectedVersion.Exact(1), Engines.Event("Shipped", "c"));

        Assert.Equal((0, 1), (first.FirstEventNumber, first.LastEventNumber));
        Assert.Equal((2, 2), (second.FirstEventNumber, second.LastEventNumber));
        Assert.True(second.LogPosition > first.LogPosition && second.CommitPosition == engine.EndPosition);

        StreamSlice slice = engine.ReadStreamForward("order-1", 0, 10);
        Assert.Equal(["Placed", "Paid", "Shipped"], slice.Events.Select(e => e.EventType));
        Assert.Equal(["a", "b", "c"], slice.Events.Select(e => Engines.Text(e.Data)));
        Assert.Equal("m0", Engines.Text(slice.Events[0].Metadata));
        Assert.True(slice.Events[1].Metadata.IsEmpty);
        Assert.Equal([0L, 1, 2], slice.Events.Select(e => e.EventNumber));
        Assert.Equal(first.LogPosition, slice.Events[0].LogPosition);
        Assert.True(slice.IsEndOfStream);
        Assert.Equal(2, engine.GetLastEventNumber("order-1"));
    }

    [Fact]
    public async Task Each_event_is_created_at_the_injected_clocks_time()
    {
        var time = new SteppedTime();
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path) with { TimeProvider = time });
        await engine.AppendAsync("clocked", ExpectedVersion.NoStream, Engines.Event());
        time.Advance(TimeSpan.FromHours(1));
        await engine.AppendAsync("clocked", ExpectedVersion.Exact(0), Engines.Event());

        DateTime start = new(2025, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        Assert.Equal([start, start.AddHours(1)], engine.ReadStreamForward("clocked", 0, 10).Events.Select(e => e.Created));
    }

    [Fact]
    public async Task Reads_page_forward_from_any_event_number()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        for (int i = 0; i < 25; i++)
        {
            await engine.AppendAsync("paged", ExpectedVersion.Any, Engines.Event(data: i.ToString(System.Globalization.CultureInfo.InvariantCulture)));
        }

        StreamSlice middle = engine.ReadStreamForward("paged", 10, 5);
        Assert.Equal(["10", "11", "12", "13", "14"], middle.Events.Select(e => Engines.Text(e.Data)));
        Assert.False(middle.IsEndOfStream);
        Assert.Equal(15, middle.NextEventNumber);

        StreamSlice tail = engine.ReadStreamForward("paged", 20, 100);
        Assert.Equal(5, tail.Events.Count);
        Assert.True(tail.IsEndOfStream);
        Assert.Empty(engine.ReadStreamForward("paged", 25, 10).Events);
    }

    [Fact]
    public async Task A_stream_never_written_reads_as_absent()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        await engine.AppendAsync("other", ExpectedVersion.Any, Engines.Event());

        StreamSlice slice = engine.ReadStreamForward("missing", 0, 10);
        Assert.False(slice.StreamExists);
        Assert.Empty(slice.Events);
        Assert.Equal(-1, engine.GetLastEventNumber("missing"));
    }

    [Fact]
    public async Task Non_ascii_names_and_types_round_trip()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        await engine.AppendAsync("commande-été-日本", ExpectedVersion.NoStream, Engines.Event("Créée"));

        RecordedEvent read = Assert.Single(engine.ReadStreamForward("commande-été-日本", 0, 1).Events);
        Assert.Equal(("commande-été-日本", "Créée"), (read.StreamName, read.EventType));
    }

    [Fact]
    public async Task Appends_roll_over_to_new_segments_and_read_across_them()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path) with { SegmentSizeBytes = 64 * 1024 });
        string body = new('x', 1000);
        for (int i = 0; i < 200; i++)
        {
            await engine.AppendAsync($"s-{i % 7}", ExpectedVersion.Any, Engines.Event(data: body));
        }

        Assert.True(engine.EndPosition > 3 * 64 * 1024);
        Assert.True(Directory.GetFiles(_directory.File("log")).Length >= 3);
        Assert.Equal(29, engine.ReadStreamForward("s-0", 0, 100).Events.Count);
        Assert.All(engine.ReadStreamForward("s-3", 0, 100).Events, e => Assert.Equal(body, Engines.Text(e.Data)));
    }
}
