using EventLog.Errors;
using EventLog.Streams;

namespace EventLog.Tests;

/// <summary>The engine locks its data directory itself: a second engine there fails, clearly, before touching the log.</summary>
public sealed class DirectoryLockTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task A_second_engine_on_the_same_directory_fails_with_a_clear_error_and_changes_nothing()
    {
        EventLogOptions options = Engines.Options(_directory.Path);
        await using EventLogEngine first = await Engines.StartAsync(options);
        await first.AppendAsync("s", ExpectedVersion.NoStream, Engines.Event());
        string[] files = Snapshot();

        DirectoryInUseException error = await Assert.ThrowsAsync<DirectoryInUseException>(() => EventLogEngine.OpenAsync(options));

        string lockPath = Path.Combine(_directory.Path, EventLogEngine.LockFileName);
        Assert.Equal($"The data directory '{_directory.Path}' is in use by another event log engine: '{lockPath}' is locked.", error.Message);
        Assert.Equal(files, Snapshot());
        Assert.Equal(1, (await first.AppendAsync("s", ExpectedVersion.Exact(0), Engines.Event())).LastEventNumber);
    }

    [Fact]
    public async Task Once_the_first_engine_is_disposed_the_directory_opens_again()
    {
        EventLogOptions options = await WriteOneEventAndCloseAsync();

        await using EventLogEngine second = await Engines.StartAsync(options);
        Assert.Equal(0, second.GetLastEventNumber("s"));
    }

    [Fact]
    public async Task A_failed_open_releases_the_lock()
    {
        EventLogOptions options = await WriteOneEventAndCloseAsync();

        // A log that does not start at position 0 is corruption that open refuses; the lock must not outlive it.
        string segment = Assert.Single(Directory.GetFiles(Path.Combine(_directory.Path, "log")));
        string shifted = segment[..^"0.log".Length] + "1.log";
        File.Move(segment, shifted);
        await Assert.ThrowsAsync<CorruptLogException>(() => EventLogEngine.OpenAsync(options));

        File.Move(shifted, segment);
        await using EventLogEngine reopened = await Engines.StartAsync(options);
        Assert.Equal(0, reopened.GetLastEventNumber("s"));
    }

    private async Task<EventLogOptions> WriteOneEventAndCloseAsync()
    {
        EventLogOptions options = Engines.Options(_directory.Path);
        await using EventLogEngine first = await Engines.StartAsync(options);
        await first.AppendAsync("s", ExpectedVersion.NoStream, Engines.Event());
        return options;
    }

    // Every file and its length, the lock file's content aside: what "changes nothing" means on disk.
    private string[] Snapshot() => [.. Directory.GetFiles(_directory.Path, "*", SearchOption.AllDirectories)
        .Order(StringComparer.Ordinal)
        .Select(f => $"{Path.GetRelativePath(_directory.Path, f)}:{new FileInfo(f).Length}")];
}
