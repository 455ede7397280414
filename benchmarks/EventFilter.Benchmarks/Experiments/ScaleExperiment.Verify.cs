using System.Diagnostics;
using System.Runtime.Intrinsics;
using System.Text.Json.Nodes;
using EventFilter.Benchmarks.Workload;
using EventFilter.Format;
using EventFilter.Integrity;
using EventFilter.Storage;
using EventFilter.Threading;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// The verify rates of <c>scale</c>'s reopen phase, in GB/s of file: the line scan on one thread and on every core,
/// beside the scan it replaced (one CRC chain per line, on the thread pool) and beside reading every byte alone (the
/// memory's pace); then cold, after dropping the page cache, beside <c>dd</c> of the same file (the device's pace).
/// Each figure maps the file afresh, so its page faults are paid as an open pays them.
/// </summary>
public static partial class ScaleExperiment
{
    // round: which of the cold reads goes first. Each after its own cache drop, but the host may keep what the guest
    // dropped (a virtual disk is a file on the host), so the first read of a round can pay for the rest: rounds rotate
    // the order, and each read goes first in one round of four.
    private static JsonObject VerifyRates(string path, int cores, int round = 0)
    {
        Run("dd", $"if={path} of=/dev/null bs=1M"); // into the page cache, whatever ran before
        var rates = new JsonObject();
        foreach (int threads in cores > 1 ? new[] { 1, cores } : [1])
        {
            rates[$"scan_{threads}t_gbs"] = Rate(path, threads, Scan);
            rates[$"scan_before_{threads}t_gbs"] = Rate(path, threads, ScanBefore);
            rates[$"read_alone_{threads}t_gbs"] = Rate(path, threads, ReadAlone);
        }

        bool dropped = DropCaches();
        rates["caches_dropped"] = dropped;
        if (dropped)
        {
            // Untimed: the file was written just before (a fresh file, or the filter's checkpoint), and the first cold
            // read of a process, whichever it was, ran at about half the pace of the later ones while the disk below
            // was still taking those writes.
            Run("dd", $"if={path} of=/dev/null bs=1M");
            (string Name, Func<double> Read)[] cold =
            [
                ($"cold_scan_{cores}t_gbs", () => Rate(path, cores, Scan)),
                ($"cold_scan_before_{cores}t_gbs", () => Rate(path, cores, ScanBefore)),
                ($"cold_scan_not_sequential_{cores}t_gbs", () => Rate(path, cores, ScanNotSequential)),
                ("cold_dd_gbs", () => DdRate(path)),
            ];
            var order = new JsonArray();
            for (int i = 0; i < cold.Length; i++)
            {
                (string name, Func<double> read) = cold[(i + round) % cold.Length];
                DropCaches();
                rates[name] = read();
                order.Add(name);
            }

            rates["cold_order"] = order;
        }

        return rates;
    }

    private static double DdRate(string path)
    {
        long started = Stopwatch.GetTimestamp();
        Run("dd", $"if={path} of=/dev/null bs=1M");
        return Math.Round(new FileInfo(path).Length / Stopwatch.GetElapsedTime(started).TotalSeconds / 1e9, 2);
    }

    /// <summary>
    /// <c>scale --verify-only</c>: the verify rates alone, <paramref name="rounds"/> times per size, of a file whose
    /// lines are random bits with valid checksums (a scan's cost does not depend on which bits are set): to profile.
    /// </summary>
    private static JsonArray VerifyOnly(long[] sizes, int rounds, int cores)
    {
        var rows = new JsonArray();
        foreach (long size in sizes)
        {
            string path = BenchmarkDirectory.Scratch($"scale-verify-{size / MiB}.filter");
            try
            {
                FilterFile.Create(path, new FilterFileOptions { SizeBytes = size, SyncOnCreate = false }).Dispose();
                FillRandomLines(path);
                for (int round = 1; round <= rounds; round++)
                {
                    JsonObject rates = VerifyRates(path, cores, round - 1);
                    rates["size_mib"] = size / MiB;
                    rates["round"] = round;
                    rates["load_average"] = LoadAverage();
                    Console.Error.WriteLine($"  {rates.ToJsonString()}");
                    rows.Add(rates);
                }
            }
            finally
            {
                BenchmarkDirectory.DeleteQuietly(path);
            }
        }

        return rows;
    }

    private static void FillRandomLines(string path)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.None, bufferSize: 0);
        byte[] block = new byte[1 << 20];
        var random = new Random(33);
        for (long offset = FilterGeometry.LineSize; offset < stream.Length; offset += block.Length)
        {
            int length = (int)Math.Min(block.Length, stream.Length - offset);
            random.NextBytes(block.AsSpan(0, length));
            for (int line = 0; line < length; line += FilterGeometry.LineSize)
            {
                Span<byte> bytes = block.AsSpan(line, FilterGeometry.LineSize);
                System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(bytes[FilterGeometry.BitBytesPerLine..], LineChecksum.Compute(bytes));
            }

            RandomAccess.Write(stream.SafeFileHandle, block.AsSpan(0, length), offset);
        }
    }

    private static unsafe double Rate(string path, int threads, Func<MappedFile, uint, int, long> scan)
    {
        using MappedFile file = MappedFile.Open(path, writable: false);
        uint lines = (uint)(file.Length / FilterGeometry.LineSize - 1);
        long started = Stopwatch.GetTimestamp();
        long bad = scan(file, lines, threads);
        double seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
        if (bad != 0)
        {
            throw new InvalidOperationException($"{path}: {bad} lines failed their checksum; the experiment's file must be clean.");
        }

        return Math.Round(file.Length / seconds / 1e9, 2);
    }

    /// <summary>The scan an open runs, the mapping marked as read in order meanwhile, as <see cref="FilterFile"/> does.</summary>
    private static unsafe long Scan(MappedFile file, uint count, int threads)
    {
        file.AdviseSequential(true);
        long bad = LineVerifier.Scan(file.Pointer + FilterGeometry.LineSize, count, repair: false, FilterFileOptions.DefaultCorruptionThreshold, threads: threads).CorruptedLines;
        file.AdviseSequential(false);
        return bad;
    }

    /// <summary>The same scan without marking the mapping: the kernel's read-around alone.</summary>
    private static unsafe long ScanNotSequential(MappedFile file, uint count, int threads) =>
        LineVerifier.Scan(file.Pointer + FilterGeometry.LineSize, count, repair: false, FilterFileOptions.DefaultCorruptionThreshold, threads: threads).CorruptedLines;

    /// <summary>The scan as it was: per line, a zero test, then one CRC chain (its 3-cycle latency exposed), on pool threads.</summary>
    private static unsafe long ScanBefore(MappedFile file, uint count, int threads)
    {
        const int Chunk = 1 << 16;
        long mismatched = 0;
        byte* start = file.Pointer + FilterGeometry.LineSize;
        Parallel.For(0L, (count + Chunk - 1) / Chunk, new ParallelOptions { MaxDegreeOfParallelism = threads }, chunk =>
        {
            long local = 0;
            for (long i = chunk * Chunk, end = Math.Min(i + Chunk, count); i < end; i++)
            {
                byte* line = start + (i << 6);
                if ((Vector256.Load(line) | Vector256.Load(line + 32)) != Vector256<byte>.Zero)
                {
                    var span = new ReadOnlySpan<byte>(line, FilterGeometry.LineSize);
                    local += LineChecksum.Compute(span) != LineChecksum.ReadStored(span) ? 1 : 0;
                }
            }

            Interlocked.Add(ref mismatched, local);
        });
        return mismatched;
    }

    /// <summary>Every byte OR-ed into a vector, on a gang as the scan runs: the pace of the memory, and of the page faults.</summary>
    private static unsafe long ReadAlone(MappedFile file, uint count, int threads)
    {
        const int Chunk = 1 << 16;
        long chunks = (count + Chunk - 1) / Chunk, next = 0, sink = 0;
        byte* start = file.Pointer + FilterGeometry.LineSize;
        void Step(int participant)
        {
            Vector256<byte> acc = Vector256<byte>.Zero;
            long chunk;
            while ((chunk = Interlocked.Increment(ref next) - 1) < chunks)
            {
                for (long i = chunk * Chunk, end = Math.Min(i + Chunk, count); i < end; i++)
                {
                    acc |= Vector256.Load(start + (i << 6)) | Vector256.Load(start + (i << 6) + 32);
                }
            }

            Interlocked.Add(ref sink, (long)acc.AsUInt64().GetElement(0));
        }

        using var gang = new WorkerGang(threads, "scale read alone");
        gang.Run(Step);
        return sink == long.MinValue ? 1 : 0; // never: keeps the loads
    }

    /// <summary>Writes dirty pages, then drops the page cache; false where not allowed (not root, a container).</summary>
    private static bool DropCaches()
    {
        try
        {
            Run("sync", "");
            File.WriteAllText("/proc/sys/vm/drop_caches", "3");
            return true;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or System.ComponentModel.Win32Exception)
        {
            return false;
        }
    }

    private static void Run(string program, string arguments)
    {
        using Process process = Process.Start(new ProcessStartInfo(program, arguments) { RedirectStandardError = true, RedirectStandardOutput = true })!;
        process.StandardError.ReadToEnd();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new IOException($"{program} {arguments} exited with {process.ExitCode}");
        }
    }
}
