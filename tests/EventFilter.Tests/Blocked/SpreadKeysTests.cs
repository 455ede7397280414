using System.Buffers.Binary;
using System.IO.Hashing;
using System.Text;
using EventFilter.Format;
using EventFilter.Tests.Integrity;

namespace EventFilter.Tests.Blocked;

/// <summary>Keys spread over two or more lines (docs/file-format.md, "Probes"): never a false negative, and the documented bits.</summary>
public sealed class SpreadKeysTests : IDisposable
{
    private const int Count = 20_000;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    // No background fold: the journal must still be there for the replay below.
    private static FilterFileOptions Options(int linesPerKey) => new() { SizeBytes = 1 << 18, K = 12, LinesPerKey = linesPerKey, JournalFoldBytes = 1L << 30 };

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    public void Every_added_key_is_found_after_reopen_journal_replay_and_repair(int linesPerKey)
    {
        string path = _dir.File("spread.filter");
        using (FilterFile filter = FilterFile.Open(path, Options(linesPerKey)))
        {
            Assert.Equal(linesPerKey, filter.Header.LinesPerKey);
            Assert.Equal(FilterHeader.SpreadVersion, filter.Header.Version);
            for (int i = 0; i < Count / 2; i++)
            {
                Assert.True(filter.Add(Names.Added(i)) || filter.MightExist(Names.Added(i)));
            }

            filter.AddBatch(Enumerable.Range(Count / 2, (Count / 2) - 50).Select(Names.Added).ToArray());
            filter.Flush(); // dense: written to the file's blocks directly

            for (int i = Count - 50; i < Count; i++)
            {
                filter.Add(Names.Added(i));
            }

            Assert.Equal(0, Missing(filter));
            filter.Flush(); // sparse: into the journal, which the opens below replay
        }

        using (FilterFile replayed = FilterFile.OpenExisting(path))
        {
            Assert.True(replayed.PendingJournal.Files > 0);
            Assert.Equal(linesPerKey, replayed.Header.LinesPerKey);
            Assert.Equal(0, Missing(replayed));
        }

        using (FilterFile reopened = FilterFile.Open(path, Options(1)))
        {
            // An existing file keeps the lines per key in its header, as it keeps its k.
            Assert.Equal(linesPerKey, reopened.Header.LinesPerKey);
            Assert.Equal(0, Missing(reopened));
        }

        long[] corrupted = CorruptionTests.CorruptRandomLines(path, 0.02, seed: linesPerKey);
        using FilterFile repaired = FilterFile.Open(path, Options(linesPerKey));
        Assert.Equal(corrupted.Length, repaired.Verification.MismatchedLines);
        Assert.Equal(0, Missing(repaired));
    }

    [Fact]
    public void The_batch_paths_answer_as_single_lookups_do()
    {
        using FilterFile filter = FilterFile.Open(_dir.File("spread.filter"), Options(3));
        ulong[] hashes = Enumerable.Range(0, Count).Select(i => filter.Hash(Encoding.UTF8.GetBytes(Names.Added(i)))).ToArray();
        filter.AddHashes(hashes);
        string[] queries = Enumerable.Range(0, Count).Select(i => i % 2 == 0 ? Names.Added(i) : Names.Absent(i)).ToArray();
        var batch = new bool[queries.Length];
        filter.MightExistBatch(queries, batch);
        var byHash = new bool[hashes.Length];
        filter.MightExistHashes(hashes, byHash);

        Assert.All(byHash, Assert.True);
        Assert.Equal(queries.Select(q => filter.MightExist(q)), batch);
        Assert.All(batch.Where((_, i) => i % 2 == 0), Assert.True);
    }

    [Theory]
    [InlineData(2, 7)]
    [InlineData(3, 10)]
    public void A_file_holds_exactly_the_bits_docs_file_format_gives_for_its_keys(int linesPerKey, int k)
    {
        // A verifier written from docs/file-format.md alone, "Probes": byte-wise bits, the documented line picks.
        string path = _dir.File("spread.filter");
        var expected = new HashSet<(uint Line, uint Bit)>();
        uint lineCount;
        using (FilterFile filter = FilterFile.Open(path, new FilterFileOptions { SizeBytes = 64 * 101, K = k, LinesPerKey = linesPerKey }))
        {
            lineCount = filter.LineCount;
            for (int i = 0; i < 300; i++)
            {
                byte[] name = Encoding.UTF8.GetBytes(Names.Added(i));
                filter.Add(name);
                expected.UnionWith(DocumentedBits(XxHash3.HashToUInt64(name, 0), lineCount, k, linesPerKey));
            }

            filter.Flush();
            filter.FoldJournal();
        }

        byte[] file = File.ReadAllBytes(path);
        Assert.Equal(linesPerKey, BinaryPrimitives.ReadUInt16LittleEndian(file.AsSpan(12)));
        Assert.Equal(2, BinaryPrimitives.ReadUInt16LittleEndian(file.AsSpan(8)));
        var actual = new HashSet<(uint Line, uint Bit)>();
        for (uint line = 0; line < lineCount; line++)
        {
            for (uint bit = 0; bit < FilterGeometry.BitsPerLine; bit++)
            {
                if ((file[(64 * (line + 1)) + (bit / 8)] & (1 << (int)(bit % 8))) != 0)
                {
                    actual.Add((line, bit));
                }
            }
        }

        Assert.Equal(expected.Order(), actual.Order());
    }

    [Fact]
    public void The_documented_example_lives_where_the_docs_say()
    {
        // docs/file-format.md, "Probes": "order-42" in a file of S = 1,000,000 with k = 7 over 2 lines.
        ulong hash = XxHash3.HashToUInt64("order-42"u8, 0);
        (uint Line, uint Bit)[] bits = DocumentedBits(hash, 15_624, 7, 2).ToArray();
        Assert.Equal([(7_433u, 21u), (7_433u, 429u), (7_433u, 114u), (7_433u, 478u), (1_028u, 152u), (1_028u, 444u), (1_028u, 167u)], bits);

        using FilterFile filter = FilterFile.Open(_dir.File("example.filter"), new FilterFileOptions { SizeBytes = 1_000_000, K = 7, LinesPerKey = 2 });
        filter.Add("order-42");
        Assert.True(filter.MightExist("order-42"));
    }

    [Fact]
    public void A_version_1_header_reads_as_one_line_per_key_whatever_its_reserved_bytes_hold()
    {
        string path = _dir.File("old.filter");
        using (FilterFile filter = FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 16 }))
        {
            Assert.Equal(1, filter.Header.Version);
            filter.Add("order-42");
            filter.Flush();
            filter.FoldJournal();
        }

        byte[] header = new byte[64];
        using (var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite))
        {
            stream.ReadExactly(header);
            Assert.Equal(0u, BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(12))); // written as today: reserved zero
            BinaryPrimitives.WriteUInt16LittleEndian(header.AsSpan(12), 3);
            BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(60), LineChecksum.Compute(header));
            stream.Position = 0;
            stream.Write(header);
        }

        using FilterFile reopened = FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 16 });
        Assert.Equal(1, reopened.Header.LinesPerKey);
        Assert.True(reopened.MightExist("order-42"));
    }

    [Theory]
    [InlineData(0, 12)]
    [InlineData(5, 12)]
    [InlineData(3, 2)]
    public void Lines_per_key_out_of_range_is_refused_naming_the_option(int linesPerKey, int k)
    {
        string path = _dir.File("bad.filter");
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 16, K = k, LinesPerKey = linesPerKey }));
        Assert.Equal(nameof(FilterFileOptions.LinesPerKey), error.ParamName);
        Assert.False(File.Exists(path));
    }

    /// <summary>docs/file-format.md, "Probes", step by step.</summary>
    internal static IEnumerable<(uint Line, uint Bit)> DocumentedBits(ulong h, uint n, int k, int linesPerKey)
    {
        var lines = new List<uint> { (uint)(((h >> 32) * n) >> 32) };
        for (int j = 1; j < linesPerKey; j++)
        {
            ulong z = h + ((ulong)j * 0x9E3779B97F4A7C15);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
            z ^= z >> 31;
            uint line = (uint)(((z >> 32) * n) >> 32);
            while (lines.Contains(line))
            {
                line = (line + 1) % n;
            }

            lines.Add(line);
        }

        uint s = (uint)h;
        for (int j = 0; j < linesPerKey; j++)
        {
            int probes = (k / linesPerKey) + (j < k % linesPerKey ? 1 : 0);
            for (int i = 0; i < probes; i++)
            {
                yield return (lines[j], (uint)(((ulong)s * 480) >> 32));
                s *= 0x9E3779B9;
            }
        }
    }

    private static int Missing(FilterFile filter) => Enumerable.Range(0, Count).Count(i => !filter.MightExist(Names.Added(i)));
}
