using System.Runtime.InteropServices;
using EventFilter.Blocked;
using EventFilter.Format;

namespace EventFilter.TestHost;

/// <summary>
/// Mode <c>probes</c>: every probe form of <see cref="BloomLines"/> (single, batch, prefetched; lookups and adds; one
/// line per key and spread keys) against the documented probe sequence computed here one bit at a time, for every k
/// up to 20; and the string form of a key's hash against its UTF-8 form, whose ASCII path needs 128-bit vectors. Prints the vector pass and prefetch this process has, then "agreed" and exits 0, or the disagreements
/// and exits 1. A test runs it with the runtime's instruction-set switches, so each pass is checked on any machine
/// that has it, whichever the machine would pick by itself.
/// </summary>
internal static unsafe class ProbePaths
{
    private const uint LineCount = 64;
    private const int MaxTestedK = 20; // past the vector passes' 16, where the scalar loop takes over

    public static string Pass => VectorProbes.IsSupported ? "avx512" : Avx2Probes.IsSupported ? "avx2" : Vector128Probes.IsSupported ? "vector128" : "scalar";

    public static string Prefetch => BloomLines.HasPrefetch ? "prefetch" : "touch";

    public static int Run()
    {
        Console.WriteLine($"pass {Pass} {Prefetch}");
        var random = new Random(480);
        byte* lines = (byte*)NativeMemory.AlignedAlloc(LineCount * FilterGeometry.LineSize, FilterGeometry.LineSize);
        var failures = new List<string>();
        try
        {
            KeyHashes(random, failures);
            for (int k = 1; k <= MaxTestedK; k++)
            {
                Lookups(lines, k, 1, random, failures);
                Adds(lines, k, random, failures);
                for (int linesPerKey = 2; linesPerKey <= Math.Min(k, FilterFileOptions.MaxLinesPerKey); linesPerKey++)
                {
                    Lookups(lines, k, linesPerKey, random, failures);
                }
            }
        }
        finally
        {
            NativeMemory.AlignedFree(lines);
        }

        failures.Take(20).ToList().ForEach(Console.WriteLine);
        Console.WriteLine(failures.Count == 0 ? "agreed" : $"disagreed {failures.Count}");
        return failures.Count == 0 ? 0 : 1;
    }

    /// <summary>
    /// Names of every length to past the ASCII path's limit, ASCII and with one non-ASCII char anywhere: the hash of
    /// the chars must be the hash of their UTF-8 bytes, whichever way this process's vectors take them.
    /// </summary>
    private static void KeyHashes(Random random, List<string> failures)
    {
        for (int length = 0; length <= Hashing.AsciiXxHash3.MaxChars + 8; length++)
        {
            char[] name = [.. Enumerable.Range(0, length).Select(_ => (char)random.Next(0x20, 0x7F))];
            for (int nonAscii = -1; nonAscii < length; nonAscii++)
            {
                char[] form = [.. name];
                if (nonAscii >= 0)
                {
                    form[nonAscii] = 'é';
                }

                ulong seed = (ulong)random.NextInt64();
                ulong expected = System.IO.Hashing.XxHash3.HashToUInt64(System.Text.Encoding.UTF8.GetBytes(form), unchecked((long)seed));
                if (Hashing.KeyHasher.Hash(form, seed) != expected)
                {
                    failures.Add($"key hash of {length} chars, non-ASCII at {nonAscii}: the string form differs from the UTF-8 form");
                }
            }
        }
    }

    /// <summary>Lines filled at densities from empty to full, so that both answers come up for every k; every lookup form against the sequence.</summary>
    private static void Lookups(byte* lines, int k, int linesPerKey, Random random, List<string> failures)
    {
        const int Keys = 4_096;
        for (uint line = 0; line < LineCount; line++)
        {
            double fill = Math.Pow(random.NextDouble(), 1.0 / k); // dense enough that many keys of large k are all set
            ulong* words = (ulong*)(lines + (line * FilterGeometry.LineSize));
            for (int w = 0; w < FilterGeometry.LineSize / sizeof(ulong); w++)
            {
                ulong word = 0;
                for (int b = 0; b < 64; b++)
                {
                    word |= random.NextDouble() < fill ? 1UL << b : 0;
                }

                words[w] = word;
            }
        }

        var filter = new BloomLines(lines, LineCount, k, changed: null, linesPerKey);
        ulong[] hashes = Enumerable.Range(0, Keys).Select(_ => (ulong)random.NextInt64()).ToArray();
        bool[] expected = hashes.Select(hash => Expected(lines, hash, k, linesPerKey)).ToArray();
        bool[] batch = new bool[Keys], prefetched = new bool[Keys];
        filter.MightExistBatch(hashes, batch);
        filter.MightExistPrefetched(hashes, prefetched);
        int found = 0;
        for (int i = 0; i < Keys; i++)
        {
            found += expected[i] ? 1 : 0;
            if (filter.MightExist(hashes[i]) != expected[i] || batch[i] != expected[i] || prefetched[i] != expected[i])
            {
                failures.Add($"lookup k={k} lines/key={linesPerKey} hash={hashes[i]:X16}: expected {expected[i]}, single {filter.MightExist(hashes[i])}, batch {batch[i]}, prefetched {prefetched[i]}");
            }
        }

        if (found == 0 || found == Keys)
        {
            failures.Add($"lookup k={k} lines/key={linesPerKey}: {found} of {Keys} keys all set, so one answer was never tested");
        }
    }

    /// <summary>Keys added one at a time, in a batch and prefetched, each from empty lines: the bits, the "changed" answers and the line checksums.</summary>
    private static void Adds(byte* lines, int k, Random random, List<string> failures)
    {
        const int Keys = 256; // 4 a line: many already-set answers for small k, few for large
        ulong[] hashes = Enumerable.Range(0, Keys).Select(_ => (ulong)random.NextInt64()).ToArray();
        hashes[Keys - 1] = hashes[0]; // at least one key added twice
        for (int form = 0; form < 3; form++)
        {
            var reference = new ulong[LineCount * 8];
            Clear(lines);
            var filter = new BloomLines(lines, LineCount, k, changed: null);
            for (int i = 0; i < Keys; i++)
            {
                bool changes = SetReference(reference, hashes[i], k);
                if (form == 0 && filter.Add(hashes[i]) != changes)
                {
                    failures.Add($"add k={k} hash={hashes[i]:X16}: expected changed={changes}");
                }
            }

            if (form == 1)
            {
                filter.AddBatch(hashes);
            }
            else if (form == 2)
            {
                filter.AddPrefetched(hashes);
            }

            for (uint line = 0; line < LineCount; line++)
            {
                var bytes = new ReadOnlySpan<byte>(lines + (line * FilterGeometry.LineSize), FilterGeometry.LineSize);
                bool bitsAgree = MemoryMarshal.AsBytes(reference.AsSpan((int)line * 8, 8))[..FilterGeometry.BitBytesPerLine].SequenceEqual(bytes[..FilterGeometry.BitBytesPerLine]);
                if (!bitsAgree || LineChecksum.Compute(bytes) != LineChecksum.ReadStored(bytes))
                {
                    failures.Add($"add k={k} form={form} line={line}: bits agree {bitsAgree}, checksum agrees {LineChecksum.Compute(bytes) == LineChecksum.ReadStored(bytes)}");
                }
            }
        }
    }

    /// <summary>Zero bits with the checksum of zero bits.</summary>
    private static void Clear(byte* lines)
    {
        new Span<byte>(lines, (int)LineCount * FilterGeometry.LineSize).Clear();
        for (uint line = 0; line < LineCount; line++)
        {
            byte* start = lines + (line * FilterGeometry.LineSize);
            *(uint*)(start + FilterGeometry.BitBytesPerLine) = LineChecksum.Compute(new ReadOnlySpan<byte>(start, FilterGeometry.LineSize));
        }
    }

    /// <summary>The documented sequence (docs/file-format.md, "Probes"), one probe at a time: are all of the key's bits set?</summary>
    private static bool Expected(byte* lines, ulong hash, int k, int linesPerKey)
    {
        Span<uint> keyLines = stackalloc uint[linesPerKey];
        Probes.SpreadLines(hash, LineCount, keyLines);
        uint state = (uint)hash;
        for (int slot = 0; slot < linesPerKey; slot++)
        {
            byte* line = lines + (keyLines[slot] * FilterGeometry.LineSize);
            for (int probe = 0; probe < Probes.SlotProbes(k, linesPerKey, slot); probe++)
            {
                uint bit = (uint)(((ulong)state * FilterGeometry.BitsPerLine) >> 32);
                if ((line[bit >> 3] & (1 << (int)(bit & 7))) == 0)
                {
                    return false;
                }

                state *= 0x9E3779B9;
            }
        }

        return true;
    }

    /// <summary>Sets a one-line key's bits in the reference copy; true when one was clear.</summary>
    private static bool SetReference(ulong[] reference, ulong hash, int k)
    {
        int line = (int)Probes.Line(hash, LineCount);
        uint state = (uint)hash;
        bool changes = false;
        for (int probe = 0; probe < k; probe++)
        {
            uint bit = (uint)(((ulong)state * FilterGeometry.BitsPerLine) >> 32);
            ulong mask = 1UL << (int)(bit & 63);
            changes |= (reference[(line * 8) + (int)(bit >> 6)] & mask) == 0;
            reference[(line * 8) + (int)(bit >> 6)] |= mask;
            state *= 0x9E3779B9;
        }

        return changes;
    }
}
