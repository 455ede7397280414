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
        const int writers = 2;
        var published = new int[writers];
        var falseNegatives = 0;
        var readsDone = 0L;
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(3));

        // Dedicated threads, not pool tasks: six busy loops on two cores would starve the pool.
        Thread[] writerThreads = Enumerable.Range(0, writers).Select(w => Start(() =>
        {
            for (int i = 0; !stop.IsCancellationRequested; i++)
            {
                filter.Add(Name(w, i));
                Volatile.Write(ref published[w], i + 1); // only after Add returned may a reader expect it
            }
        })).ToArray();

        Thread[] readerThreads = Enumerable.Range(0, 4).Select(r => Start(() =>
        {
            var random = new Random(r);
            while (!stop.IsCancellationRequested)
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

                Interlocked.Increment(ref readsDone);
            }
        })).ToArray();

        Assert.All([.. writerThreads, .. readerThreads], t => Assert.True(t.Join(TimeSpan.FromSeconds(30)), "a stress thread did not finish: deadlock?"));
        Assert.Equal(0, falseNegatives);
        Assert.True(readsDone > 1000, $"only {readsDone} reads ran");
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
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(2));
        int added = 0;
        Thread writer = Start(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                filter.Add(Name(0, added));
                Volatile.Write(ref added, added + 1);
            }
        });

        int flushes = 0;
        while (writer.IsAlive)
        {
            filter.Flush();
            flushes++;
        }

        Assert.True(writer.Join(TimeSpan.FromSeconds(30)));
        Assert.True(flushes > 0);
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
