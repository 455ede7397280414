using System.Runtime.InteropServices;
using EventFilter.Format;
using EventFilter.Integrity;

namespace EventFilter.Tests.Integrity;

/// <summary>
/// The multi-core, four-lines-at-a-time scan against a line-by-line reference, over several chunks and a tail that is
/// not a multiple of four, with every kind of line placed at every position of a group of four.
/// </summary>
public sealed unsafe class LineScanTests
{
    // Three whole chunks and a ragged tail: chunks go to different threads, and the tail takes the one-line path.
    private const uint LineCount = 3 * LineScan.ChunkLines + 7;

    [Theory]
    [InlineData(1, false)]
    [InlineData(2, false)]
    [InlineData(1, true)]
    [InlineData(2, true)]
    [InlineData(4, true)]
    public void Scan_counts_and_repairs_exactly_as_line_by_line(int threads, bool repair)
    {
        byte* lines = (byte*)NativeMemory.AlignedAlloc(LineCount * 64, 64);
        try
        {
            var span = new Span<byte>(lines, (int)(LineCount * 64));
            HashSet<long> mismatched = Fill(span);
            byte[] before = span.ToArray();
            long allOnesBefore = CountValidAllOnes(span);

            VerificationResult result = LineVerifier.Scan(lines, LineCount, repair, threshold: 0.5, threads: threads);

            Assert.Equal(mismatched.Count, result.MismatchedLines);
            Assert.Equal(mismatched.Order().Take(VerificationResult.MaxBadLinesReported), result.FirstBadLines);
            Assert.Equal(repair ? mismatched.Count : 0, result.RepairedLines);
            Assert.Equal(allOnesBefore + (repair ? mismatched.Count : 0), result.AllOnesLines);
            for (long i = 0; i < LineCount; i++)
            {
                Span<byte> line = span.Slice((int)(i * 64), 64);
                if (repair && mismatched.Contains(i))
                {
                    Assert.True(line[..60].IndexOfAnyExcept((byte)0xFF) < 0, $"line {i} was not set to all ones");
                    Assert.Equal(LineChecksum.Compute(line), LineChecksum.ReadStored(line));
                }
                else
                {
                    Assert.True(line.SequenceEqual(before.AsSpan((int)(i * 64), 64)), $"line {i} changed");
                }
            }
        }
        finally
        {
            NativeMemory.AlignedFree(lines);
        }
    }

    [Fact]
    public void Four_interleaved_checksums_equal_four_single_ones()
    {
        byte[] lines = new byte[256];
        new Random(4).NextBytes(lines);
        fixed (byte* start = lines)
        {
            LineChecksum.ComputeFour(start, out uint a, out uint b, out uint c, out uint d);
            Assert.Equal([LineChecksum.Compute(lines.AsSpan(0, 64)), LineChecksum.Compute(lines.AsSpan(64, 64)), LineChecksum.Compute(lines.AsSpan(128, 64)), LineChecksum.Compute(lines.AsSpan(192, 64))], [a, b, c, d]);
        }
    }

    /// <summary>Fills every line with one of seven kinds, in a pattern of period 7 so that each kind meets every position of a group of four; returns the lines that must mismatch.</summary>
    private static HashSet<long> Fill(Span<byte> span)
    {
        var random = new Random(33);
        var mismatched = new HashSet<long>();
        for (long i = 0; i < LineCount; i++)
        {
            Span<byte> line = span.Slice((int)(i * 64), 64);
            line.Clear(); // never written: valid
            int kind = (int)((i * 3 + (i / 7)) % 7);
            switch (kind)
            {
                case 1 or 2: // bits with their checksum: valid
                    random.NextBytes(line[..60]);
                    WriteChecksum(line);
                    break;
                case 3: // all ones with the all-ones checksum: valid, but counts as corrupted
                    line[..60].Fill(0xFF);
                    WriteChecksum(line);
                    break;
                case 4: // a bit flipped after the checksum was written
                    random.NextBytes(line[..60]);
                    WriteChecksum(line);
                    line[random.Next(60)] ^= (byte)(1 << random.Next(8));
                    mismatched.Add(i);
                    break;
                case 5: // all-ones bits with a wrong checksum: mismatched, not all ones
                    line[..60].Fill(0xFF);
                    mismatched.Add(i);
                    break;
                case 6: // zero bits with a checksum that is not zero
                    line[62] = 1;
                    mismatched.Add(i);
                    break;
            }
        }

        return mismatched;
    }

    private static long CountValidAllOnes(Span<byte> span)
    {
        long count = 0;
        for (int i = 0; i < LineCount; i++)
        {
            Span<byte> line = span.Slice(i * 64, 64);
            count += line[..60].IndexOfAnyExcept((byte)0xFF) < 0 && LineChecksum.Compute(line) == LineChecksum.ReadStored(line) ? 1 : 0;
        }

        return count;
    }

    private static void WriteChecksum(Span<byte> line) =>
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(line[60..], LineChecksum.Compute(line));
}
