using System.Numerics;
using EventFilter.Format;

namespace EventFilter.Statistics;

/// <summary>Counts bits line by line, in parallel, and turns the counts into the estimates of <see cref="FilterStatistics"/>.</summary>
internal static unsafe class StatisticsScanner
{
    private const int ChunkLines = 1 << 16;

    public static FilterStatistics Scan(byte* lines, uint lineCount, int k, int linesPerKey, long sizeBytes)
    {
        // For a line with x of 480 bits set, the expected number of names that produced it inverts
        // E[x] = 480 (1 - (1 - 1/480)^(k n)): n = ln(1 - x/480) / (k ln(1 - 1/480)). A name spread over L lines puts
        // k / L probes in each of them, so the sum over lines counts every name L times, and a query needs its k / L
        // probes set in each of L lines.
        double probesPerLine = (double)k / linesPerKey;
        double perNameDecay = probesPerLine * Math.Log(1 - (1.0 / FilterGeometry.BitsPerLine));
        long bitsSet = 0, allOnes = 0;
        double names = 0, falsePositive = 0;
        long chunks = (lineCount + (long)ChunkLines - 1) / ChunkLines;
        object gate = new();

        Parallel.For(0L, chunks, chunk =>
        {
            long first = chunk * ChunkLines;
            long end = Math.Min(first + ChunkLines, lineCount);
            long localBits = 0, localAllOnes = 0;
            double localNames = 0, localFalsePositive = 0;
            for (long i = first; i < end; i++)
            {
                int set = CountBits(lines + (i << 6));
                localBits += set;
                if (set == FilterGeometry.BitsPerLine)
                {
                    localAllOnes++;
                    localFalsePositive += 1;
                    continue;
                }

                double fill = (double)set / FilterGeometry.BitsPerLine;
                localNames += Math.Log(1 - fill) / perNameDecay;
                localFalsePositive += Math.Pow(fill, probesPerLine);
            }

            lock (gate)
            {
                bitsSet += localBits;
                allOnes += localAllOnes;
                names += localNames;
                falsePositive += localFalsePositive;
            }
        });

        return new FilterStatistics(sizeBytes, lineCount, k, bitsSet, (long)lineCount * FilterGeometry.BitsPerLine, allOnes, names / linesPerKey, lineCount == 0 ? 0 : Math.Pow(falsePositive / lineCount, linesPerKey));
    }

    private static int CountBits(byte* line)
    {
        ulong* words = (ulong*)line;
        int count = 0;
        for (int w = 0; w < 7; w++)
        {
            count += BitOperations.PopCount(words[w]);
        }

        return count + BitOperations.PopCount(*(uint*)(line + 56));
    }
}
