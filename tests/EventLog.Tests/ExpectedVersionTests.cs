using EventLog.Errors;
using EventLog.Streams;

namespace EventLog.Tests;

public sealed class ExpectedVersionTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task No_stream_passes_for_a_new_stream_and_fails_with_the_current_version_once_written()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        await engine.AppendAsync("s", ExpectedVersion.NoStream, [Engines.Event(), Engines.Event()]);

        var error = await Assert.ThrowsAsync<WrongExpectedVersionException>(() => engine.AppendAsync("s", ExpectedVersion.NoStream, Engines.Event()));
        Assert.Equal(1, error.CurrentVersion);
        Assert.Equal(ExpectedVersion.NoStream, error.Expected);
        Assert.Equal(2, engine.ReadStreamForward("s", 0, 10).Events.Count);
    }

    [Fact]
    public async Task Stream_exists_fails_for_a_new_stream_and_passes_once_written()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        var error = await Assert.ThrowsAsync<WrongExpectedVersionException>(() => engine.AppendAsync("s", ExpectedVersion.StreamExists, Engines.Event()));
        Assert.Equal(-1, error.CurrentVersion);
        Assert.False(engine.ReadStreamForward("s", 0, 1).StreamExists);

        await engine.AppendAsync("s", ExpectedVersion.Any, Engines.Event());
        AppendResult result = await engine.AppendAsync("s", ExpectedVersion.StreamExists, Engines.Event());
        Assert.Equal(1, result.LastEventNumber);
    }

    [Fact]
    public async Task Exact_version_must_match_and_a_mismatch_writes_nothing()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        var onNew = await Assert.ThrowsAsync<WrongExpectedVersionException>(() => engine.AppendAsync("s", ExpectedVersion.Exact(0), Engines.Event()));
        Assert.Equal(-1, onNew.CurrentVersion);
        await engine.AppendAsync("s", ExpectedVersion.NoStream, Engines.Event());
        long end = engine.EndPosition;

        var error = await Assert.ThrowsAsync<WrongExpectedVersionException>(() => engine.AppendAsync("s", ExpectedVersion.Exact(5), Engines.Event()));
        Assert.Equal(0, error.CurrentVersion);
        Assert.Equal(end, engine.EndPosition);

        AppendResult ok = await engine.AppendAsync("s", ExpectedVersion.Exact(0), Engines.Event());
        Assert.Equal(1, ok.LastEventNumber);
    }

    [Fact]
    public async Task Any_appends_whatever_the_stream_holds()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        Assert.Equal(0, (await engine.AppendAsync("s", ExpectedVersion.Any, Engines.Event())).LastEventNumber);
        Assert.Equal(1, (await engine.AppendAsync("s", default, Engines.Event())).LastEventNumber);
    }

    [Fact]
    public void Exact_rejects_a_negative_number() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => ExpectedVersion.Exact(-1));
}
