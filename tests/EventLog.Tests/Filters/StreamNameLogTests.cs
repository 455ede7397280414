using System.Text;
using EventFilter;
using EventLog.Streams;

namespace EventLog.Tests.Filters;

/// <summary>The engine as the filter's log, and a host-owned filter injected into it.</summary>
public sealed class StreamNameLogTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task ReadAsync_returns_every_name_in_log_order_across_segments_and_small_batches()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path) with { SegmentSizeBytes = 64 * 1024 });
        var written = new List<string>();
        for (int i = 0; i < 300; i++)
        {
            string stream = $"log-{i % 40}";
            await engine.AppendAsync(stream, ExpectedVersion.Any, Engines.Event(data: new string('d', 500)));
            written.Add(stream);
        }

        var read = new List<string>();
        var batch = new StreamNameBatch(maxRecords: 7);
        long position = 0;
        while (position < engine.EndPosition)
        {
            batch.Clear();
            await engine.ReadAsync(position, batch, CancellationToken.None);
            Assert.True(batch.NextPosition > position);
            int offset = 0;
            foreach (int length in batch.Lengths)
            {
                read.Add(Encoding.UTF8.GetString(batch.Names.Slice(offset, length)));
                offset += length;
            }

            position = batch.NextPosition;
        }

        Assert.Equal(written, read);
        batch.Clear();
        await engine.ReadAsync(engine.EndPosition, batch, CancellationToken.None);
        Assert.Equal((0, engine.EndPosition), (batch.Count, batch.NextPosition));
    }

    [Fact]
    public async Task ReadAsync_reports_a_damaged_durable_record_with_its_file_and_position()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        long second = 0;
        for (int i = 0; i < 3; i++)
        {
            long position = (await engine.AppendAsync($"damaged-{i}", ExpectedVersion.NoStream, Engines.Event())).LogPosition;
            second = i == 1 ? position : second;
        }

        // One byte of the second record's stream name, flipped behind the engine's back: its checksum no longer matches.
        string segment = Directory.GetFiles(_directory.File("log")).Single();
        await using (FileStream file = File.Open(segment, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite))
        {
            file.Seek(second + Records.RecordHeader.NameOffset, SeekOrigin.Begin);
            int original = file.ReadByte();
            file.Seek(-1, SeekOrigin.Current);
            file.WriteByte((byte)(original ^ 0xFF));
        }

        var batch = new StreamNameBatch(maxRecords: 100);
        Errors.CorruptLogException error = await Assert.ThrowsAsync<Errors.CorruptLogException>(() => engine.ReadAsync(0, batch, CancellationToken.None).AsTask());
        Assert.Equal((segment, second), (error.FilePath, error.LogPosition));
        Assert.Contains("a durable record is damaged", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_host_filter_injected_at_start_gets_every_append_and_checkpoints_at_the_engines_end()
    {
        await using (EventLogEngine seed = await Engines.StartAsync(Engines.Options(_directory.Path)))
        {
            await Engines.AppendNewStreamsAsync(seed, "old", 300);
        }

        // The host contract (docs/design.md): open the filter, start the engine with it, catch up in the background;
        // on shutdown stop appends, stop catch-up, checkpoint and dispose the filter, then the engine.
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(Engines.Options(_directory.Path));
        using var filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = _directory.File("host-filter"), SizeBytes = 100_000 }, engine);
        filter.Open();
        engine.Start(filter);
        using var stopping = new CancellationTokenSource();
        Task catchUp = filter.CatchUpAsync(stopping.Token);
        await Engines.AppendNewStreamsAsync(engine, "new", 300);
        await filter.WhenReady;

        Assert.Same(filter, engine.Filter);
        for (int i = 0; i < 300; i++)
        {
            Assert.True(filter.MightExist($"old-{i}"), "caught up from the log");
            Assert.True(filter.MightExist($"new-{i}"), "added by the engine");
        }

        await engine.StopAsync();
        await Assert.ThrowsAsync<Errors.EngineStoppedException>(() => engine.AppendAsync("late", ExpectedVersion.Any, Engines.Event()));
        await stopping.CancelAsync();
        await catchUp;
        filter.Checkpoint(engine.EndPosition);
        Assert.Equal(engine.EndPosition, filter.CheckpointPosition);
        Assert.Equal(0, engine.ReadStreamForward("new-1", 0, 1).LastEventNumber);
    }
}
