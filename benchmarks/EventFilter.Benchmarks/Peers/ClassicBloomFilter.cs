using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;
using EventFilter.Benchmarks.Workload;
using EventFilter.Blocked;
using EventFilter.Format;
using Microsoft.Win32.SafeHandles;

namespace EventFilter.Benchmarks.Peers;

/// <summary>
/// The classic design EventFilter is measured against, built the way EventStoreDB's filter works conceptually:
/// k = 6 bits anywhere in the file, placed by double hashing with a 64-bit <c>%</c> per probe, over the same layout of
/// 64-byte lines (60 bytes of bits, 4 of CRC-32C). An add rehashes every line whose bit it changed and marks that
/// line's page dirty, so it costs up to 6 cache misses, 6 line checksums and 6 dirty pages.
/// Its storage is EventStoreDB's final one: the whole file in anonymous memory, and a flush that writes every dirty
/// 4 KiB page with a positioned write, then fsyncs. To be fair to it, it takes no lock (one writer assumed) and
/// skips the checksum when a probe's bit was already set.
/// </summary>
public sealed unsafe class ClassicBloomFilter : IDisposable
{
    public const int K = 6;

    private const int PageSize = 4096;

    private readonly SafeFileHandle _handle;
    private readonly byte* _memory;
    private readonly long _length;
    private readonly byte* _lines;
    private readonly ulong _totalBits;
    private readonly AtomicBitmap _dirtyPages;

    /// <summary>
    /// Creates an empty filter file at <paramref name="path"/>: a 64-byte header line, then lines. With
    /// <paramref name="sizeCountsFilterBits"/>, <paramref name="sizeBytes"/> is EventStoreDB's setting: exactly
    /// 8 x <paramref name="sizeBytes"/> filter bits, in as many 60-byte payloads as they need; otherwise it is the file's
    /// length, and the filter has all 480 bits of each of its lines.
    /// </summary>
    public ClassicBloomFilter(string path, long sizeBytes, bool sizeCountsFilterBits = false)
    {
        FilterGeometry geometry = FilterGeometry.For(sizeBytes, sizeCountsFilterBits);
        _length = geometry.FileLength;
        Path = path;
        _handle = File.OpenHandle(path, FileMode.Create, FileAccess.ReadWrite, FileShare.None, FileOptions.None, preallocationSize: _length);
        RandomAccess.SetLength(_handle, _length);
        _memory = (byte*)NativeMemory.AlignedAlloc((nuint)_length, PageSize);
        new Span<byte>(_memory, (int)Math.Min(_length, int.MaxValue)).Clear();
        for (long done = int.MaxValue; done < _length; done += int.MaxValue)
        {
            new Span<byte>(_memory + done, (int)Math.Min(_length - done, int.MaxValue)).Clear();
        }

        _lines = _memory + FilterGeometry.LineSize;
        LineCount = geometry.LineCount;
        _totalBits = sizeCountsFilterBits ? (ulong)sizeBytes * 8 : (ulong)geometry.TotalBits;
        _dirtyPages = new AtomicBitmap((_length + PageSize - 1) / PageSize);
    }

    public uint LineCount { get; }

    public string Path { get; }

    public bool Add(ReadOnlySpan<char> name)
    {
        Span<byte> utf8 = stackalloc byte[Encoding.UTF8.GetMaxByteCount(name.Length)];
        return Add(utf8[..Encoding.UTF8.GetBytes(name, utf8)]);
    }

    /// <summary>Sets the name's 6 bits; returns true if any changed.</summary>
    public bool Add(ReadOnlySpan<byte> utf8Name)
    {
        (ulong first, ulong second) = ClassicHashes.Compute(utf8Name);
        bool changed = false;
        for (int i = 0; i < K; i++)
        {
            (ulong lineIndex, int bit) = Locate((first + ((ulong)i * second)) % _totalBits);
            byte* line = _lines + (lineIndex << 6);
            byte mask = (byte)(1 << (bit & 7));
            if ((line[bit >> 3] & mask) != 0)
            {
                continue;
            }

            line[bit >> 3] |= mask;
            *(uint*)(line + FilterGeometry.BitBytesPerLine) = LineChecksum.Compute(new ReadOnlySpan<byte>(line, FilterGeometry.LineSize));
            _dirtyPages.Add((line - _memory) / PageSize);
            changed = true;
        }

        return changed;
    }

    public bool MightExist(ReadOnlySpan<char> name)
    {
        Span<byte> utf8 = stackalloc byte[Encoding.UTF8.GetMaxByteCount(name.Length)];
        return MightExist(utf8[..Encoding.UTF8.GetBytes(name, utf8)]);
    }

    public bool MightExist(ReadOnlySpan<byte> utf8Name)
    {
        (ulong first, ulong second) = ClassicHashes.Compute(utf8Name);
        for (int i = 0; i < K; i++)
        {
            (ulong lineIndex, int bit) = Locate((first + ((ulong)i * second)) % _totalBits);
            if ((_lines[(lineIndex << 6) + (ulong)(bit >> 3)] & (1 << (bit & 7))) == 0)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Writes every page changed since the last flush with a positioned write, then fsyncs; reports the bytes written.</summary>
    public FlushResult Flush()
    {
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        var writer = new PageWriter(this);
        _dirtyPages.Take(ref writer);
        RandomAccess.FlushToDisk(_handle);
        return new FlushResult(writer.Written, System.Diagnostics.Stopwatch.GetElapsedTime(started));
    }

    /// <summary>Marks every page dirty, so the next flush writes the whole file (after <see cref="FillRandomly"/>).</summary>
    public void MarkAllDirty()
    {
        for (long page = 0; page < _dirtyPages.Capacity; page++)
        {
            _dirtyPages.Add(page);
        }
    }

    /// <summary>
    /// Sets each bit independently with probability <paramref name="fraction"/> and writes valid checksums: the state a
    /// classic filter reaches after many names, whose bits are independent. Used to bring the peer to design load
    /// without a billion slow adds. It marks no page dirty; call <see cref="MarkAllDirty"/> and <see cref="Flush"/> to write it out.
    /// </summary>
    public void FillRandomly(double fraction, ulong seed)
    {
        var random = new SplitMix64(seed);
        var threshold = Vector256.Create((byte)Math.Clamp(Math.Round(fraction * 256), 0, 255));
        Span<ulong> noise = stackalloc ulong[4];
        for (uint i = 0; i < LineCount; i++)
        {
            byte* line = _lines + ((ulong)i << 6);
            for (int word = 0; word < FilterGeometry.BitBytesPerLine / 4; word++)
            {
                // 32 random bytes compared with the threshold give 32 bits, each set with probability threshold/256.
                for (int n = 0; n < 4; n++)
                {
                    noise[n] = random.Next();
                }

                Vector256<byte> bytes = Vector256.Create(noise).AsByte();
                ((uint*)line)[word] = Vector256.LessThan(bytes, threshold).ExtractMostSignificantBits();
            }

            *(uint*)(line + FilterGeometry.BitBytesPerLine) = LineChecksum.Compute(new ReadOnlySpan<byte>(line, FilterGeometry.LineSize));
        }
    }

    public void Dispose()
    {
        _handle.Dispose();
        NativeMemory.AlignedFree(_memory);
    }

    private struct PageWriter(ClassicBloomFilter filter) : AtomicBitmap.IMemberVisitor
    {
        public long Written { get; private set; }

        public void Visit(long page)
        {
            long offset = page * PageSize;
            int length = (int)Math.Min(PageSize, filter._length - offset);
            RandomAccess.Write(filter._handle, new ReadOnlySpan<byte>(filter._memory + offset, length), offset);
            Written += length;
        }
    }

    /// <summary>Bit b of the filter is bit (b mod 480) of line (b / 480); the divisor is a constant, so this is a multiply.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static (ulong Line, int Bit) Locate(ulong bit)
    {
        ulong line = bit / FilterGeometry.BitsPerLine;
        return (line, (int)(bit - (line * FilterGeometry.BitsPerLine)));
    }
}
