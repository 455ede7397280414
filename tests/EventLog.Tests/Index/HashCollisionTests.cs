using EventLog.Index;
using EventLog.Segments;
using EventLog.Streams;

namespace EventLog.Tests.Index;

/// <summary>The index keys entries by a 64-bit hash; two streams sharing one must still be told apart, by the log.</summary>
public sealed class HashCollisionTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Colliding_streams_in_one_index_file_are_told_apart_by_their_records()
    {
        long[] a, b;
        await using (EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path)))
        {
            await engine.AppendAsync("alpha", ExpectedVersion.NoStream, [Engines.Event(), Engines.Event(), Engines.Event()]);
            b = [(await engine.AppendAsync("beta", ExpectedVersion.NoStream, Engines.Event())).LogPosition];
            a = [.. engine.ReadStreamForward("alpha", 0, 3).Events.Select(e => e.LogPosition)];
        }

        // Pretend both names hash to 42: alpha's 3 entries and beta's 1 interleave under one key.
        IndexEntry[] entries = [new(42, 0, a[0]), new(42, 0, b[0]), new(42, 1, a[1]), new(42, 2, a[2])];
        using SegmentSet segments = LogOpener.Open(_directory.File("log"), out _);
        var log = new LogReader(segments);
        var plan = new IndexFilePlan(1, 0, 0, segments.DurableEnd, entries.Length, 2);
        IndexFile file = IndexFile.Write(_directory.Path, plan, entries, new PerFileFilters(true, 0.01));
        try
        {
            Assert.Equal(2, file.LastEventNumber(42, "alpha"u8, log));
            Assert.Equal(0, file.LastEventNumber(42, "beta"u8, log));
            Assert.Null(file.LastEventNumber(42, "gamma"u8, log));
            Assert.Null(file.LastEventNumber(41, "alpha"u8, log));

            var candidates = new List<IndexEntry>();
            file.CollectRange(42, 0, 0, candidates);
            Assert.Equal([a[0], b[0]], candidates.Select(c => c.Position).Order());
        }
        finally
        {
            file.Release();
        }
    }

    [Fact]
    public void The_stream_hash_is_stable_because_it_is_stored_on_disk()
    {
        // Pinned values: changing the hash silently would make every existing index file answer wrongly. Index format
        // version 2 moved to XXH3-64 (System.IO.Hashing); a version 1 file is rebuilt from the log, never misread.
        Assert.Equal(StreamHash.Of("stream-1"u8), StreamHash.Of("stream-1"u8));
        Assert.NotEqual(StreamHash.Of("ab"u8), StreamHash.Of("ab\0"u8));
        Assert.Equal(PinnedHashOfStream1, StreamHash.Of("stream-1"u8));
    }

    private const ulong PinnedHashOfStream1 = 0x9406_0D77_F057_D5F7; // XXH3-64("stream-1", seed 0)
}
