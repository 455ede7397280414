using EventFilter.Format;

namespace EventFilter.Tests.Integrity;

public sealed class CorruptionTests : IDisposable
{
    private const int NameCount = 50_000;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Corrupted_lines_become_all_ones_are_counted_and_lose_no_name()
    {
        string path = WriteFilter(out var options);
        long[] corrupted = CorruptRandomLines(path, fraction: 0.01, seed: 1);

        using (FilterFile filter = FilterFile.Open(path, options))
        {
            Assert.False(filter.RebuildRequired);
            Assert.Equal(corrupted.Length, filter.Verification.MismatchedLines);
            Assert.Equal(corrupted.Length, filter.Verification.RepairedLines);
            Assert.Equal(corrupted.Length, filter.Verification.CorruptedLines);
            Assert.Equal(corrupted.Take(VerificationResultLimit).ToArray(), filter.Verification.FirstBadLines);
            Assert.Equal(0, FilterFileTests.CountMissing(filter, NameCount));
            Assert.Equal(corrupted.Length, filter.ComputeStatistics().AllOnesLines);
        }

        // The repair was written back: the next open finds no mismatch, and still counts the all-ones lines.
        using FilterFile again = FilterFile.Open(path, options);
        Assert.Equal(0, again.Verification.MismatchedLines);
        Assert.Equal(corrupted.Length, again.Verification.AllOnesLines);
        Assert.Equal(0, FilterFileTests.CountMissing(again, NameCount));
    }

    [Fact]
    public void More_than_the_threshold_corrupted_requires_a_rebuild_and_writes_nothing()
    {
        string path = WriteFilter(out var options);
        CorruptRandomLines(path, fraction: 0.06, seed: 2);
        byte[] before = File.ReadAllBytes(path);

        using (FilterFile filter = FilterFile.Open(path, options))
        {
            Assert.True(filter.RebuildRequired);
            Assert.Equal(0, filter.Verification.RepairedLines);
        }

        Assert.Equal(before, File.ReadAllBytes(path));
    }

    [Fact]
    public void All_ones_lines_count_toward_the_threshold()
    {
        string path = WriteFilter(out var options);
        using (var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite))
        {
            long lines = stream.Length / 64 - 1;
            var allOnes = new byte[64];
            allOnes.AsSpan(0, 60).Fill(0xFF);
            BitConverter.TryWriteBytes(allOnes.AsSpan(60), LineChecksum.Compute(allOnes));
            for (long line = 0; line < lines * 6 / 100; line++)
            {
                stream.Position = (line + 1) * 64;
                stream.Write(allOnes);
            }
        }

        using FilterFile filter = FilterFile.Open(path, options);
        Assert.Equal(0, filter.Verification.MismatchedLines);
        Assert.True(filter.RebuildRequired);
    }

    private const int VerificationResultLimit = EventFilter.VerificationResult.MaxBadLinesReported;

    private string WriteFilter(out FilterFileOptions options)
    {
        string path = _dir.File("filter.bin");
        options = new FilterFileOptions { SizeBytes = Names.SizeFor(NameCount, 10) };
        using FilterFile filter = FilterFile.Open(path, options);
        for (int i = 0; i < NameCount; i++)
        {
            filter.Add(Names.Added(i));
        }

        filter.Flush();
        return path;
    }

    /// <summary>Flips one random byte in each of a random set of lines; returns the sorted line numbers.</summary>
    internal static long[] CorruptRandomLines(string path, double fraction, int seed)
    {
        var random = new Random(seed);
        using var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        long lines = stream.Length / 64 - 1;
        var chosen = new SortedSet<long>();
        while (chosen.Count < (long)(lines * fraction))
        {
            chosen.Add(random.NextInt64(lines));
        }

        foreach (long line in chosen)
        {
            stream.Position = ((line + 1) * 64) + random.Next(64);
            int old = stream.ReadByte();
            stream.Position--;
            stream.WriteByte((byte)(old ^ (1 + random.Next(255))));
        }

        return chosen.ToArray();
    }
}
