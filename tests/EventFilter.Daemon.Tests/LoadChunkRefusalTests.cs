namespace EventFilter.Daemon.Tests;

/// <summary>
/// BF.LOADCHUNK refuses truncated, reordered, foreign and corrupted chunks with a clear error, and what it loads into
/// keeps what it had: an existing filter is never touched, a restore under way stays where it was and can go on.
/// 10,000 fuzzed chunks from a fixed seed, in process. Also BF.SCANDUMP's errors.
/// </summary>
public sealed class LoadChunkRefusalTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly InProcessCommands _daemon;
    private readonly List<(long Iterator, byte[] Data)> _source;
    private readonly List<(long Iterator, byte[] Data)> _other;

    public LoadChunkRefusalTests()
    {
        _daemon = new InProcessCommands(_directory.Path);
        // Two chunks of items: 65,536 and a few hundred (66,000 less the few a false positive turned away). "other"
        // has the same parameters, other items.
        _daemon.Call("BF.RESERVE", "source", "0.001", "100000");
        _daemon.Call("BF.RESERVE", "other", "0.001", "100000");
        foreach (object[] madd in DumpLoop.Batches("BF.MADD", "source", 0, 66_000).Concat(DumpLoop.Batches("BF.MADD", "other", 1_000_000, 66_000)))
        {
            _daemon.Call(madd);
        }

        _source = DumpLoop.Dump(_daemon.Call, "source");
        _other = DumpLoop.Dump(_daemon.Call, "other");
        Assert.Equal(3, _source.Count);
        Assert.Equal(3, _other.Count);
        _daemon.Call("BF.MADD", "kept", "a", "b", "c");
    }

    [Fact]
    public void Each_kind_of_bad_chunk_gets_its_own_error_and_the_restore_goes_on_after_them()
    {
        Assert.Equal("OK", _daemon.Call("BF.LOADCHUNK", "dst", _source[0].Iterator, _source[0].Data));
        (long iterator, byte[] data) = _source[1];

        AssertRefused("ERR received bad data: it is 1000 bytes where its header says 524352 (truncated or damaged)", iterator, data[..1000]);
        byte[] flipped = [.. data];
        flipped[5000] ^= 0x01;
        AssertRefused("ERR received bad data: it fails its checksum (damaged)", iterator, flipped);
        AssertRefused("ERR chunk out of order: expected chunk 1 of 2", _source[2].Iterator, _source[2].Data);
        AssertRefused("ERR received bad data: the chunk belongs to another dump", _other[1].Iterator, _other[1].Data);
        AssertRefused("ERR received bad data: iterator 7 does not go with this chunk", 7, data);
        // RedisBloom's own header chunk, from its BF.SCANDUMP documentation: a foreign chunk.
        byte[] redisBloom = Convert.FromHexString("01000000000000000100000005000000020000000800000000000000400000000000000001000000000000009a9999999999a93f4af7d49edef01840050000000a0000000000000000");
        AssertRefused("ERR received bad data: it is not an eventfilterd dump chunk", 1, redisBloom);
        AssertRefused("ERR Second argument must be numeric", "str", data);

        Assert.Equal(0L, _daemon.Call("EXISTS", "dst"));
        DumpLoop.Load(_daemon.Call, "dst", _source.Skip(1));
        Assert.Equal(_source.Select(c => c.Data), DumpLoop.Dump(_daemon.Call, "dst").Select(c => c.Data));
    }

    [Fact]
    public void A_chunk_into_a_key_with_a_filter_or_with_no_restore_is_refused_and_changes_nothing()
    {
        List<(long, byte[])> before = DumpLoop.Dump(_daemon.Call, "kept");
        AssertRefused("ERR item exists: BF.LOADCHUNK restores a dump into a key that has no filter; DEL it first", _source[0].Iterator, _source[0].Data, key: "kept");
        AssertRefused("ERR the key holds a filter and is not being restored", _source[1].Iterator, _source[1].Data, key: "kept");
        AssertRefused("ERR not found: no restore of this key is under way", _source[1].Iterator, _source[1].Data, key: "missing");

        Assert.Equal(before, DumpLoop.Dump(_daemon.Call, "kept"), (a, b) => a.Item1 == b.Item1 && a.Item2.SequenceEqual(b.Item2));
        Assert.Equal(0L, _daemon.Call("EXISTS", "missing"));
    }

    [Fact]
    public void The_last_chunk_sent_again_is_acknowledged_and_changes_nothing()
    {
        DumpLoop.Load(_daemon.Call, "dst", _source.Take(2));
        Assert.Equal("OK", _daemon.Call("BF.LOADCHUNK", "dst", _source[1].Iterator, _source[1].Data));
        DumpLoop.Load(_daemon.Call, "dst", _source.Skip(2));
        Assert.Equal(_daemon.Call("BF.CARD", "source"), _daemon.Call("BF.CARD", "dst"));
    }

    [Fact]
    public void The_final_chunk_sent_again_after_its_OK_is_acknowledged_while_the_key_holds_that_restore()
    {
        // Regression: once the last chunk had published the filter, its retry was refused "the key holds a filter".
        DumpLoop.Load(_daemon.Call, "dst", _source);
        Assert.Equal("OK", _daemon.Call("BF.LOADCHUNK", "dst", _source[2].Iterator, _source[2].Data));
        Assert.Equal(_daemon.Call("BF.CARD", "source"), _daemon.Call("BF.CARD", "dst"));
        AssertRefused("ERR the key holds a filter and is not being restored", _source[1].Iterator, _source[1].Data, key: "dst");

        // A dump of no items ends at its header chunk, so the header is its final chunk.
        _daemon.Call("BF.RESERVE", "empty", "0.01", "10");
        List<(long Iterator, byte[] Data)> empty = DumpLoop.Dump(_daemon.Call, "empty");
        Assert.Single(empty);
        Assert.Equal("OK", _daemon.Call("BF.LOADCHUNK", "empty2", empty[0].Iterator, empty[0].Data));
        Assert.Equal("OK", _daemon.Call("BF.LOADCHUNK", "empty2", empty[0].Iterator, empty[0].Data));

        // Not once the key holds another filter: the retry would be of a restore that no longer shows.
        _daemon.Call("DEL", "dst", "empty2");
        _daemon.Call("BF.ADD", "dst", "x");
        _daemon.Call("BF.ADD", "empty2", "x");
        AssertRefused("ERR the key holds a filter and is not being restored", _source[2].Iterator, _source[2].Data, key: "dst");
        AssertRefused("ERR item exists", empty[0].Iterator, empty[0].Data, key: "empty2");
    }

    [Fact]
    public void Scandump_refuses_a_missing_key_a_word_and_an_iterator_of_no_dump()
    {
        Assert.Equal(new RespError("ERR not found"), _daemon.Call("BF.SCANDUMP", "missing", 0));
        Assert.Equal(new RespError("ERR Second argument must be numeric"), _daemon.Call("BF.SCANDUMP", "source", "str"));
        Assert.Equal(new RespError("ERR Second argument must be numeric"), _daemon.Call("BF.SCANDUMP", "source", -1));
        var error = Assert.IsType<RespError>(_daemon.Call("BF.SCANDUMP", "kept", _source[1].Iterator));
        Assert.StartsWith($"ERR invalid iterator: the filter holds fewer than the {_daemon.Call("BF.CARD", "source")} items", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Ten_thousand_fuzzed_chunks_are_all_refused_and_change_no_filter()
    {
        Assert.Equal("OK", _daemon.Call("BF.LOADCHUNK", "dst", _source[0].Iterator, _source[0].Data));
        List<(long, byte[])> kept = DumpLoop.Dump(_daemon.Call, "kept");
        var random = new Random(20261125);
        string[] keys = ["dst", "kept", "missing"];
        for (int i = 0; i < 10_000; i++)
        {
            (long iterator, byte[] data) = Fuzz(random);
            string key = keys[i % keys.Length];
            object? reply = _daemon.Call("BF.LOADCHUNK", key, iterator, data);
            Assert.True(reply is RespError, $"fuzzed chunk {i} into '{key}' was taken: {reply}");
        }

        Assert.Equal(kept, DumpLoop.Dump(_daemon.Call, "kept"), (a, b) => a.Item1 == b.Item1 && a.Item2.SequenceEqual(b.Item2));
        Assert.Equal(0L, _daemon.Call("EXISTS", "missing"));
        Assert.Equal(0L, _daemon.Call("EXISTS", "dst"));
        DumpLoop.Load(_daemon.Call, "dst", _source.Skip(1));
        Assert.Equal(_source.Select(c => c.Data), DumpLoop.Dump(_daemon.Call, "dst").Select(c => c.Data));
    }

    public void Dispose()
    {
        _daemon.Dispose();
        _directory.Dispose();
    }

    /// <summary>
    /// A chunk of the source or the other dump (the large first items chunk rarely: it costs 512 KiB a time), damaged
    /// one way or another; or a whole chunk sent with another chunk's iterator or out of its order.
    /// </summary>
    private (long Iterator, byte[] Data) Fuzz(Random random)
    {
        List<(long Iterator, byte[] Data)> dump = random.Next(4) == 0 ? _other : _source;
        int pick = random.Next(40);
        (long iterator, byte[] data) = dump[pick == 0 ? 1 : pick % 2 == 0 ? 0 : 2];
        (long Iterator, byte[] Data) fuzzed = Damage(random, dump, iterator, data);
        if (fuzzed.Iterator == iterator && fuzzed.Data.AsSpan().SequenceEqual(data))
        {
            fuzzed.Data[^1] ^= 1; // a splice or overwrite that happened to change nothing
        }

        return fuzzed;
    }

    private static (long Iterator, byte[] Data) Damage(Random random, List<(long Iterator, byte[] Data)> dump, long iterator, byte[] data)
    {
        byte[] fuzzed = [.. data];
        switch (random.Next(7))
        {
            case 0: // flip one to eight bits
                for (int flips = random.Next(1, 9); flips > 0; flips--)
                {
                    fuzzed[random.Next(fuzzed.Length)] ^= (byte)(1 << random.Next(8));
                }

                return (iterator, fuzzed);
            case 1: // overwrite a run of bytes
                int at = random.Next(fuzzed.Length);
                random.NextBytes(fuzzed.AsSpan(at, Math.Min(fuzzed.Length - at, random.Next(1, 64))));
                return (iterator, fuzzed);
            case 2: // truncate
                return (iterator, fuzzed[..random.Next(fuzzed.Length)]);
            case 3: // extend
                return (iterator, [.. fuzzed, .. Enumerable.Range(0, random.Next(1, 32)).Select(_ => (byte)random.Next(256))]);
            case 4: // a prefix of one chunk and the rest of another
                byte[] second = dump[random.Next(dump.Count)].Data;
                int cut = random.Next(1, Math.Min(fuzzed.Length, second.Length));
                return (iterator, [.. fuzzed.AsSpan(0, cut), .. second.AsSpan(cut)]);
            case 5: // an intact chunk with a wrong iterator
                return (iterator + random.Next(1, 1 << 25), fuzzed);
            default: // random bytes of a plausible length
                random.NextBytes(fuzzed);
                return (iterator, fuzzed);
        }
    }

    private void AssertRefused(string expectedStart, object iterator, byte[] data, string key = "dst")
    {
        var error = Assert.IsType<RespError>(_daemon.Call("BF.LOADCHUNK", key, iterator, data));
        Assert.StartsWith(expectedStart, error.Message, StringComparison.Ordinal);
    }
}
