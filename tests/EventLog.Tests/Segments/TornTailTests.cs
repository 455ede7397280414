using EventLog.Streams;

namespace EventLog.Tests.Segments;

public sealed class TornTailTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string LastSegment => Directory.GetFiles(_directory.File("log"), "segment-*.log").Order(StringComparer.Ordinal).Last();

    [Fact]
    public async Task Garbage_after_the_last_record_is_cut_and_earlier_records_stay()
    {
        long end = await WriteTenEventsAsync();
        await using (FileStream file = File.OpenWrite(LastSegment))
        {
            file.Seek(0, SeekOrigin.End);
            byte[] garbage = new byte[100];
            new Random(1).NextBytes(garbage);
            file.Write(garbage);
        }

        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        Assert.Equal((end, 100L), (engine.LogRecovery.End, engine.LogRecovery.TruncatedBytes));
        Assert.Equal(end, new FileInfo(LastSegment).Length);
        Assert.Equal(10, engine.ReadStreamForward("s", 0, 100).Events.Count);
        Assert.Equal(10, (await engine.AppendAsync("s", ExpectedVersion.Exact(9), Engines.Event())).LastEventNumber);
    }

    [Fact]
    public async Task A_partial_last_record_is_cut_with_its_append()
    {
        long end = await WriteTenEventsAsync();
        long lastRecordStart;
        await using (EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path)))
        {
            lastRecordStart = engine.ReadStreamForward("s", 9, 1).Events[0].LogPosition;
        }

        File.WriteAllBytes(LastSegment, File.ReadAllBytes(LastSegment)[..(int)(end - 5)]);

        await using EventLogEngine reopened = await Engines.StartAsync(Engines.Options(_directory.Path));
        Assert.Equal(lastRecordStart, reopened.LogRecovery.End);
        Assert.Equal(end - 5 - lastRecordStart, reopened.LogRecovery.TruncatedBytes);
        Assert.Equal(8, reopened.GetLastEventNumber("s"));
        Assert.Equal(9, reopened.ReadStreamForward("s", 0, 100).Events.Count);
    }

    [Fact]
    public async Task An_append_missing_its_last_record_is_dropped_whole()
    {
        long before, end, recordLength;
        await using (EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path)))
        {
            await engine.AppendAsync("s", ExpectedVersion.NoStream, Engines.Event());
            before = engine.EndPosition;
            AppendResult three = await engine.AppendAsync("s", ExpectedVersion.Exact(0), [Engines.Event(), Engines.Event(), Engines.Event()]);
            end = three.CommitPosition;
            recordLength = (end - before) / 3;
        }

        // Cut on a record boundary: two whole, valid records of the append remain, but not the one that ends it.
        File.WriteAllBytes(LastSegment, File.ReadAllBytes(LastSegment)[..(int)(end - recordLength)]);

        await using EventLogEngine reopened = await Engines.StartAsync(Engines.Options(_directory.Path));
        Assert.Equal(before, reopened.LogRecovery.End);
        Assert.Equal(2 * recordLength, reopened.LogRecovery.TruncatedBytes);
        Assert.Equal(0, reopened.GetLastEventNumber("s"));
    }

    [Fact]
    public async Task A_flipped_bit_in_the_last_record_fails_its_checksum_and_is_cut()
    {
        long end = await WriteTenEventsAsync();
        byte[] bytes = File.ReadAllBytes(LastSegment);
        bytes[end - 10] ^= 0x10;
        File.WriteAllBytes(LastSegment, bytes);

        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        Assert.True(engine.LogRecovery.TruncatedBytes > 0);
        Assert.Equal(8, engine.GetLastEventNumber("s"));
    }

    [Fact]
    public async Task A_clean_restart_cuts_nothing()
    {
        long end = await WriteTenEventsAsync();
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        Assert.Equal((end, 0L), (engine.LogRecovery.End, engine.LogRecovery.TruncatedBytes));
    }

    private async Task<long> WriteTenEventsAsync()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        for (int i = 0; i < 10; i++)
        {
            await engine.AppendAsync("s", ExpectedVersion.Any, Engines.Event(data: $"event {i}"));
        }

        return engine.EndPosition;
    }
}
