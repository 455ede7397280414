namespace EventFilter.Tests.Blocked;

public sealed class ConcurrencyTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Four_readers_and_two_writers_see_no_false_negative_and_leave_every_checksum_valid()
    {
        // Small filter, so writers collide on lines and stripes: the case the stripe lock exists for.
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = 64 * 2048 });
        const int writers = 2, readers = 4, readsEach = 50_000;
        var published = new int[writers];
        var falseNegatives = 0;
        var readersLeft = readers;

        // Counted, not timed: each reader makes its reads only once a writer has published something, and the writers
        // go on until every reader is done, so reads and writes always overlap however the threads are scheduled
        // (the first version ran 3 s and required 1,000 reads, which a loaded machine could miss).
        // Dedicated threads, not pool tasks: six busy loops on two cores would starve the pool.
        Thread[] writerThreads = Enumerable.Range(0, writers).Select(w => Start(() =>
        {
            for (int i = 0; Volatile.Read(ref readersLeft) > 0; i++)
            {
                filter.Add(Name(w, i));
                Volatile.Write(ref published[w], i + 1); // only after Add returned may a reader expect it
            }
        })).ToArray();

        Thread[] readerThreads = Enumerable.Range(0, readers).Select(r => Start(() =>
        {
            var random = new Random(r);
            for (int reads = 0; reads < readsEach;)
            {
                int w = random.Next(writers);
                int upTo = Volatile.Read(ref published[w]);
                if (upTo == 0)
                {
                    continue;
                }

                if (!filter.MightExist(Name(w, random.Next(upTo))))
                {
                    Interlocked.Increment(ref falseNegatives);
                }

                reads++;
            }

            Interlocked.Decrement(ref readersLeft);
        })).ToArray();

        // The join limit only turns a deadlock into a failure; the work takes well under a second.
        Assert.All([.. writerThreads, .. readerThreads], t => Assert.True(t.Join(TimeSpan.FromMinutes(2)), "a stress thread did not finish: deadlock?"));
        Assert.Equal(0, falseNegatives);
        for (int w = 0; w < writers; w++)
        {
            for (int i = 0; i < published[w]; i++)
            {
                Assert.True(filter.MightExist(Name(w, i)));
            }
        }

        Assert.Equal(0, filter.Verify(repair: false).MismatchedLines);
    }

    [Fact]
    public void Flush_runs_while_adds_continue_and_every_checksum_ends_valid()
    {
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = 8 << 20 });
        const int flushesWanted = 20;
        int added = 0, flushes = 0;

        // The writer adds until the flusher has flushed 20 times, so every flush runs with adds going on, on any
        // machine (the first version ran for 2 s and could see no flush at all if this thread was starved).
        Thread writer = Start(() =>
        {
            while (Volatile.Read(ref flushes) < flushesWanted)
            {
                filter.Add(Name(0, added));
                Volatile.Write(ref added, added + 1);
            }
        });

        while (writer.IsAlive)
        {
            filter.Flush();
            Interlocked.Increment(ref flushes);
        }

        Assert.True(writer.Join(TimeSpan.FromMinutes(2)));
        Assert.True(flushes >= flushesWanted);
        for (int i = 0; i < added; i++)
        {
            Assert.True(filter.MightExist(Name(0, i)));
        }

        Assert.Equal(0, filter.Verify(repair: false).MismatchedLines);
    }

    private static Thread Start(Action work)
    {
        var thread = new Thread(() => work()) { IsBackground = true };
        thread.Start();
        return thread;
    }

    private static string Name(int writer, int i) => $"writer-{writer}-stream-{i:D9}";
}
