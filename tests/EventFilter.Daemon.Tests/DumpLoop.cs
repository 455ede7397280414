namespace EventFilter.Daemon.Tests;

/// <summary>RedisBloom's dump and restore loop, as its documentation gives it, over any way of making a call.</summary>
public static class DumpLoop
{
    /// <summary>BF.SCANDUMP from iterator 0, feeding each answer back, until the iterator comes back 0 (with an empty chunk).</summary>
    public static List<(long Iterator, byte[] Data)> Dump(Func<object[], object?> call, string key)
    {
        var chunks = new List<(long, byte[])>();
        long iterator = 0;
        while (true)
        {
            var reply = Assert.IsType<object?[]>(call(["BF.SCANDUMP", key, iterator]));
            iterator = Assert.IsType<long>(reply[0]);
            byte[] data = Assert.IsType<byte[]>(reply[1]);
            if (iterator == 0)
            {
                Assert.Empty(data);
                return chunks;
            }

            chunks.Add((iterator, data));
        }
    }

    /// <summary>BF.LOADCHUNK of every chunk in order; each must answer OK.</summary>
    public static void Load(Func<object[], object?> call, string key, IEnumerable<(long Iterator, byte[] Data)> chunks)
    {
        foreach ((long iterator, byte[] data) in chunks)
        {
            Assert.Equal("OK", call(["BF.LOADCHUNK", key, iterator, data]));
        }
    }

    /// <summary>The items "item-0" .. "item-(count-1)" as BF.MADD/BF.MEXISTS arguments, in batches.</summary>
    public static IEnumerable<object[]> Batches(string command, string key, int from, int count, int batch = 1000)
    {
        for (int start = from; start < from + count; start += batch)
        {
            int size = Math.Min(batch, from + count - start);
            yield return [command, key, .. Enumerable.Range(start, size).Select(i => (object)$"item-{i}")];
        }
    }
}
