using EventFilter.Blocked;

namespace EventFilter.Tests.Blocked;

/// <summary>
/// A catch-up adding on several threads while the host adds its own names (docs/design.md, "Concurrency"): the region
/// path takes each line's stripe like any add, so no bit and no checksum update is lost to a racing host add.
/// </summary>
public sealed class RegionAdderRaceTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    // 2,048 lines: one region, and hosts collide with the catch-up on lines and stripes; 8 MiB: eight regions.
    [Theory]
    [InlineData(64 * 2048)]
    [InlineData(8 << 20)]
    public void Host_adds_racing_a_parallel_catch_up_lose_no_name_and_leave_every_checksum_valid(long sizeBytes)
    {
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = sizeBytes });
        const int hosts = 2, batches = 6, perBatch = RegionAdder.ParallelMinimum + 1_000;
        var published = new int[hosts];
        int catchUpDone = 0;

        // Each host adds until the catch-up has finished, so every batch runs with host adds going on.
        // Dedicated threads, not pool tasks: busy loops on two cores would starve the pool.
        Thread[] hostThreads = Enumerable.Range(0, hosts).Select(h => Start(() =>
        {
            for (int i = 0; Volatile.Read(ref catchUpDone) == 0; i++)
            {
                filter.Add(HostName(h, i), recordEnd: i + 1);
                Volatile.Write(ref published[h], i + 1);
            }
        })).ToArray();

        Thread catchUp = Start(() =>
        {
            // Begin only once both hosts are adding: the race is the point.
            var spinner = default(SpinWait);
            while (Volatile.Read(ref published[0]) == 0 || Volatile.Read(ref published[1]) == 0)
            {
                spinner.SpinOnce();
            }

            using var adder = new RegionAdder(threads: 2);
            for (int b = 0; b < batches; b++)
            {
                filter.AddBatch(RegionAdderTests.Batch(b * perBatch, perBatch), adder);
            }

            Volatile.Write(ref catchUpDone, 1);
        });

        // The join limit only turns a deadlock into a failure.
        Assert.All([.. hostThreads, catchUp], t => Assert.True(t.Join(TimeSpan.FromMinutes(2)), "a thread did not finish: deadlock?"));
        int missing = Enumerable.Range(0, batches * perBatch).Count(i => !filter.MightExist(Names.Added(i)));
        for (int h = 0; h < hosts; h++)
        {
            missing += Enumerable.Range(0, published[h]).Count(i => !filter.MightExist(HostName(h, i)));
        }

        Assert.Equal(0, missing);
        Assert.Equal(0, filter.Verify(repair: false).MismatchedLines);
    }

    private static Thread Start(Action work)
    {
        var thread = new Thread(() => work()) { IsBackground = true };
        thread.Start();
        return thread;
    }

    private static string HostName(int host, int i) => $"host-{host}-stream-{i:D9}";
}
