using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics.X86;

namespace EventFilter.Benchmarks.Baseline;

/// <summary>
/// What the memory system itself allows for the catch-up's kind of access, on one thread and on several: independent
/// updates of random 64-byte lines (a word read, OR-ed and written back), each line prefetched 32 updates ahead, with
/// no hashing, no lock and no bookkeeping. Two orders: across the whole buffer at random (a GUPS-style loop), and
/// region by region as the catch-up's region path walks its file (1 MiB regions at 1 GiB, about a thousand updates
/// per region per sweep, each thread in its own run of regions, 1/threads of the buffer). The
/// buffer is anonymous memory in 4 KiB pages, every page written before timing. The threads' figures bound what a
/// second thread can buy the catch-up on this machine, with the catch-up's own code taken out.
/// </summary>
public sealed unsafe partial class LineUpdateBuffer : IDisposable
{
    private const int LineShift = 6;
    private const int Ahead = 32; // the catch-up's GroupedPrefetchDistance
    private const int MinRegionShift = 14, MaxRegionsLog2 = 10; // the catch-up's region geometry (BloomLines.Regions)
    private const int MadviseHugePage = 14, MadviseNoHugePage = 15;

    private readonly byte* _buffer;
    private readonly uint _lines;
    private readonly int _regionShift;
    private readonly int _stripeShift; // a stripe covers 1/256 of the buffer, as the filter's do
    private readonly int[] _stripes = new int[256 * 16];
    private readonly ulong[] _changed;

    /// <param name="hugePages">2 MiB pages instead of 4 KiB (a run with both shows what the page walks cost).</param>
    public LineUpdateBuffer(long bytes, bool hugePages = false)
    {
        _lines = checked((uint)(bytes >> LineShift));
        if (!System.Numerics.BitOperations.IsPow2(_lines))
        {
            throw new ArgumentOutOfRangeException(nameof(bytes), bytes, "a power of two of at least 64 bytes");
        }

        _buffer = (byte*)NativeMemory.AlignedAlloc((nuint)bytes, 2 << 20);
        if (OperatingSystem.IsLinux())
        {
            _ = Madvise(_buffer, (nuint)bytes, hugePages ? MadviseHugePage : MadviseNoHugePage); // 4 KiB: as the filter's file mapping gets
        }

        for (long page = 0; page < bytes; page += 4096)
        {
            _buffer[page] = 0; // every page faulted in before any timing
        }

        _changed = new ulong[_lines >> 6];
        _regionShift = Math.Max(MinRegionShift, 32 - System.Numerics.BitOperations.LeadingZeroCount(_lines - 1) - MaxRegionsLog2);
        _stripeShift = Math.Max(0, 32 - System.Numerics.BitOperations.LeadingZeroCount(_lines - 1) - 8);
    }

    /// <summary>Lines in the buffer.</summary>
    public uint Lines => _lines;

    /// <summary>
    /// Nanoseconds per update, all threads together (wall time over the total): <paramref name="updates"/> updates
    /// shared by <paramref name="threads"/> threads, started together. Region by region, or at random when
    /// <paramref name="byRegion"/> is false.
    /// </summary>
    public double UpdateNs(int threads, long updates, bool byRegion) =>
        Together(threads, updates, t => byRegion ? UpdateByRegion(t, threads, updates / threads, locked: false) : UpdateAtRandom(t, threads, updates / threads));

    /// <summary>
    /// As <see cref="UpdateNs"/> region by region, with what an add does beside its line: a stripe lock taken and
    /// released around the update (an interlocked compare-exchange on one of 256 stripes, each its own cache line and
    /// covering 1/256 of the buffer, so each thread's are its own) and the line's bit in a changed-line bitmap set by an interlocked
    /// OR when clear. Its speed-up against the plain loop's shows what the interlocked instructions cost a second core.
    /// </summary>
    public double LockedUpdateNs(int threads, long updates) =>
        Together(threads, updates, t => UpdateByRegion(t, threads, updates / threads, locked: true));

    /// <summary>
    /// Runs <paramref name="work"/>(t) on <paramref name="threads"/> dedicated threads that spin until all have
    /// started, and returns the wall time from the first start to the last end over <paramref name="count"/>.
    /// </summary>
    public static double Together(int threads, long count, Func<int, long> work)
    {
        int waiting = threads;
        long[] starts = new long[threads], ends = new long[threads];
        long sink = 0;
        Thread[] running = Enumerable.Range(0, threads).Select(t => new Thread(() =>
        {
            Interlocked.Decrement(ref waiting);
            while (Volatile.Read(ref waiting) > 0)
            {
                Thread.SpinWait(16); // both on a core before either times anything
            }

            starts[t] = Stopwatch.GetTimestamp();
            long result = work(t);
            ends[t] = Stopwatch.GetTimestamp();
            Interlocked.Add(ref sink, result);
        })).ToArray();
        foreach (Thread thread in running)
        {
            thread.Start();
        }

        foreach (Thread thread in running)
        {
            thread.Join();
        }

        GC.KeepAlive(sink);
        return Stopwatch.GetElapsedTime(starts.Min(), ends.Max()).TotalNanoseconds / count;
    }

    public void Dispose() => NativeMemory.AlignedFree(_buffer);

    // Thread t of n: `count` updates over its own run of regions, walked in order, as many updates per region per
    // sweep as a catch-up batch gives it (about a thousand at 256 MiB and 1 GiB).
    private long UpdateByRegion(int t, int n, long count, bool locked)
    {
        int regions = (int)(_lines >> _regionShift);
        int batch = (int)Math.Clamp(_lines / 16, 4096, 1 << 20); // the catch-up's batch (RegionAdder.BatchFor)
        int perRegion = Math.Max(1, batch / regions);
        uint regionMask = (1u << _regionShift) - 1;
        uint* ring = stackalloc uint[Ahead];
        ulong state = 0x5EED_0000UL + (ulong)t;
        long done = 0;
        int first = (int)((long)regions * t / n), end = (int)((long)regions * (t + 1) / n);
        int region = first;
        for (long i = 0; i < count + Ahead; i++)
        {
            if (i < count)
            {
                if (i % perRegion == 0 && i > 0)
                {
                    region = region + 1 == end ? first : region + 1;
                }

                uint line = ((uint)region << _regionShift) | ((uint)Mix(ref state) & regionMask);
                Sse.Prefetch0(_buffer + ((ulong)line << LineShift));
                if (locked)
                {
                    Sse.Prefetch0(Unsafe.AsPointer(ref _changed[line >> 6]));
                }

                if (i >= Ahead)
                {
                    done += locked ? LockedUpdate(ring[i % Ahead], state) : Update(ring[i % Ahead], state);
                }

                ring[i % Ahead] = line;
            }
            else
            {
                done += locked ? LockedUpdate(ring[i % Ahead], state) : Update(ring[i % Ahead], state);
            }
        }

        return done;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int LockedUpdate(uint line, ulong bits)
    {
        ref int stripe = ref _stripes[(int)(line >> _stripeShift) * 16];
        while (Interlocked.CompareExchange(ref stripe, 1, 0) != 0)
        {
            Thread.SpinWait(1);
        }

        int done = Update(line, bits);
        ref ulong word = ref _changed[line >> 6];
        if ((Volatile.Read(ref word) & (1UL << (int)(line & 63))) == 0)
        {
            Interlocked.Or(ref word, 1UL << (int)(line & 63));
        }

        Volatile.Write(ref stripe, 0);
        return done;
    }

    // Thread t of n: `count` updates of random lines of its own run of the buffer, 1/n of it.
    private long UpdateAtRandom(int t, int n, long count)
    {
        uint first = (uint)((long)_lines * t / n), span = (uint)((long)_lines * (t + 1) / n) - first;
        uint* ring = stackalloc uint[Ahead];
        ulong state = 0xA11_0000UL + (ulong)t;
        long done = 0;
        for (long i = 0; i < count + Ahead; i++)
        {
            if (i < count)
            {
                uint line = first + (uint)(((ulong)(uint)Mix(ref state) * span) >> 32);
                Sse.Prefetch0(_buffer + ((ulong)line << LineShift));
                if (i >= Ahead)
                {
                    done += Update(ring[i % Ahead], state);
                }

                ring[i % Ahead] = line;
            }
            else
            {
                done += Update(ring[i % Ahead], state);
            }
        }

        return done;
    }

    // Reads a word of the line, ORs a bit in and writes it back: a Bloom add's read-modify-write of one line.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int Update(uint line, ulong bits)
    {
        ulong* word = (ulong*)(_buffer + ((ulong)line << LineShift)) + (bits & 7);
        ulong old = *word;
        *word = old | (1UL << (int)(bits >> 58));
        return (int)(old & 1);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Mix(ref ulong state)
    {
        ulong z = state += 0x9E3779B97F4A7C15;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
        return z ^ (z >> 27);
    }

    [LibraryImport("libc", EntryPoint = "madvise")]
    private static partial int Madvise(void* address, nuint length, int advice);
}
