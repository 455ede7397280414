using EventLog.Errors;
using EventLog.Streams;

namespace EventLog.Tests;

public sealed class ValidationTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    // Built in the test, not passed as theory data: xunit's serialisation of theory data would mend the lone surrogate.
    [Theory]
    [InlineData("empty")]
    [InlineData("over 1,000 bytes")]
    [InlineData("over 1,000 bytes once UTF-8")]
    [InlineData("lone surrogate")]
    public async Task Invalid_stream_names_are_rejected_with_an_argument_exception_and_change_nothing(string kind)
    {
        string name = kind switch
        {
            "empty" => "",
            "over 1,000 bytes" => new string('a', EventLimits.MaxStreamNameBytes + 1),
            "over 1,000 bytes once UTF-8" => new string('é', 501),
            _ => "lone-\ud800-surrogate",
        };
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        await engine.AppendAsync("good", ExpectedVersion.Any, Engines.Event());
        long end = engine.EndPosition;

        ArgumentException append = Assert.ThrowsAny<ArgumentException>(() => { _ = engine.AppendAsync(name, ExpectedVersion.Any, Engines.Event()); });
        Assert.IsType<InvalidStreamNameException>(append);
        Assert.Throws<InvalidStreamNameException>(() => engine.ReadStreamForward(name, 0, 1));
        Assert.Throws<InvalidStreamNameException>(() => engine.GetLastEventNumber(name));
        Assert.Equal(end, engine.EndPosition);
    }

    [Fact]
    public async Task A_name_of_exactly_the_limit_is_accepted()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        string longest = new('a', EventLimits.MaxStreamNameBytes);
        await engine.AppendAsync(longest, ExpectedVersion.NoStream, Engines.Event());
        Assert.Equal(0, engine.GetLastEventNumber(longest));
    }

    [Fact]
    public async Task Bad_events_are_rejected_before_anything_is_written()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path) with { SegmentSizeBytes = 64 * 1024 });
        Assert.Equal(-1, Assert.Throws<InvalidEventException>(() => { _ = engine.AppendAsync("s", ExpectedVersion.Any, []); }).Index);
        Assert.Equal(1, Assert.Throws<InvalidEventException>(() => { _ = engine.AppendAsync("s", ExpectedVersion.Any, [Engines.Event(), Engines.Event(type: "")]); }).Index);
        Assert.Throws<InvalidEventException>(() => { _ = engine.AppendAsync("s", ExpectedVersion.Any, Engines.Event(type: new string('t', 256))); });
        Assert.Throws<InvalidEventException>(() => { _ = engine.AppendAsync("s", ExpectedVersion.Any, new EventData("Big", new byte[65 * 1024])); });
        Assert.Equal(0, engine.EndPosition);
    }

    [Fact]
    public async Task Appends_need_a_started_engine_that_is_not_disposed()
    {
        EventLogEngine engine = await EventLogEngine.OpenAsync(Engines.Options(_directory.Path));
        Assert.Throws<EngineStoppedException>(() => { _ = engine.AppendAsync("s", ExpectedVersion.Any, Engines.Event()); });
        engine.Start();
        Assert.Throws<InvalidOperationException>(() => engine.Start());
        await engine.AppendAsync("s", ExpectedVersion.Any, Engines.Event());
        await engine.DisposeAsync();
        Assert.Throws<EngineStoppedException>(() => { _ = engine.AppendAsync("s", ExpectedVersion.Any, Engines.Event()); });
    }

    [Fact]
    public async Task Out_of_range_options_name_the_option_and_create_nothing()
    {
        string directory = _directory.File("never-created");
        var error = await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => EventLogEngine.OpenAsync(Engines.Options(directory) with { MemTableEntries = 0 }));
        Assert.Equal(nameof(EventLogOptions.MemTableEntries), error.ParamName);
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => EventLogEngine.OpenAsync(Engines.Options(directory) with { IndexMergeThreshold = 1 }));
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => EventLogEngine.OpenAsync(Engines.Options(directory) with { StreamExistenceFilterSizeBytes = 10 }));
        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => EventLogEngine.OpenAsync(Engines.Options(directory) with { PerFileFilterFalsePositiveRate = 0 }));
        Assert.False(Directory.Exists(directory));
    }

    [Fact]
    public async Task Read_arguments_out_of_range_are_rejected()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        Assert.Throws<ArgumentOutOfRangeException>(() => engine.ReadStreamForward("s", -1, 10));
        Assert.Throws<ArgumentOutOfRangeException>(() => engine.ReadStreamForward("s", 0, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => engine.ReadStreamForward("s", 0, EventLimits.MaxReadCount + 1));
    }
}
