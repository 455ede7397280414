namespace EventFilter.Tests.Journal;

/// <summary>
/// Flushes copy changed lines without holding their stripes (an add never waits for the flush's thread); what an
/// add completed before a flush began must still be durable: replayed from the journal, or folded into the file.
/// </summary>
public sealed class FlushDuringAddsTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData(64 << 20, 200)] // 1M lines: a flush's changes are sparse, so it appends them to the journal (folded often)
    [InlineData(1 << 20, 10)] // 16k lines: a flush finds dense changes and writes their blocks straight into the file
    public void Every_add_finished_before_a_flush_began_is_there_after_reopening(long sizeBytes, int flushesWanted)
    {
        string path = _dir.File("filter.bin");
        var options = new FilterFileOptions { SizeBytes = sizeBytes, JournalFoldBytes = 64 * 1024 };
        int added = 0, flushes = 0, durable = 0;
        using (FilterFile filter = FilterFile.Open(path, options))
        {
            var writer = new Thread(() =>
            {
                while (Volatile.Read(ref flushes) < flushesWanted)
                {
                    filter.Add(Name(added));
                    Volatile.Write(ref added, added + 1);
                }
            }) { IsBackground = true };
            writer.Start();
            while (writer.IsAlive)
            {
                int before = Volatile.Read(ref added);
                if (before == durable)
                {
                    Thread.Yield(); // only flushes with new adds behind them count
                    continue;
                }

                filter.Flush();
                durable = before;
                Interlocked.Increment(ref flushes);
            }

            Assert.True(writer.Join(TimeSpan.FromMinutes(2)));
        }

        Assert.True(durable > 0);
        using FilterFile reopened = FilterFile.Open(path, options);
        Assert.Equal(0, reopened.Verification.MismatchedLines);
        for (int i = 0; i < durable; i++)
        {
            Assert.True(reopened.MightExist(Name(i)), $"name {i} of {durable} durable ones is missing");
        }
    }

    private static string Name(int i) => $"flushed-while-adding-{i:D9}";
}
