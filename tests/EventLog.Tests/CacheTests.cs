using EventLog.Caching;

namespace EventLog.Tests;

public sealed class CacheTests
{
    [Fact]
    public void The_cache_stays_within_its_capacity_and_keeps_what_was_just_stored()
    {
        var cache = new StreamInfoCache(capacity: 100);
        for (int i = 0; i < 1000; i++)
        {
            cache.Set($"s-{i}", i);
        }

        int cached = Enumerable.Range(0, 1000).Count(i => cache.TryGet($"s-{i}", out _));
        Assert.Equal(100, cached);
        Assert.True(cache.TryGet("s-999", out long last));
        Assert.Equal(999, last);
    }

    [Fact]
    public void A_recently_read_entry_survives_the_next_eviction()
    {
        var cache = new StreamInfoCache(capacity: 3);
        cache.Set("a", 1);
        cache.Set("b", 2);
        cache.Set("c", 3);
        cache.Set("d", 4); // a full pass clears every bit, then evicts the oldest: a
        Assert.True(cache.TryGet("b", out _));
        cache.Set("e", 5); // c is unreferenced now, b was read: c goes
        Assert.True(cache.TryGet("b", out _));
        Assert.False(cache.TryGet("c", out _));
        Assert.False(cache.TryGet("a", out _));
    }

    [Fact]
    public void A_zero_capacity_cache_stores_nothing()
    {
        var cache = new StreamInfoCache(capacity: 0);
        cache.Set("a", 1);
        Assert.False(cache.TryGet("a", out _));
    }
}
