using System.Runtime.CompilerServices;
using EventFilter.Blocked;
using EventFilter.Format;
using EventFilter.Hashing;
using EventFilter.Integrity;
using EventFilter.Statistics;
using EventFilter.Storage;

namespace EventFilter;

/// <summary>
/// A persistent blocked Bloom filter in one memory-mapped file: a checksummed header line, then 64-byte lines of
/// 60 bytes of bits and a 4-byte checksum. Answers "definitely not" (false) or "maybe" (true), never a false negative.
/// Lookups are lock-free and may run on any number of threads while adds run on others.
/// See docs/design.md for the design and docs/file-format.md for the bytes.
/// </summary>
public sealed unsafe partial class FilterFile : IDisposable
{
    private readonly MappedFile _file;
    private readonly BloomLines _lines;
    private readonly DirtyPageMap? _dirtyPages;
    private readonly Lock _flushGate = new();

    // Copied out of the header so the hot path reads one field, not a 48-byte struct.
    private readonly ulong _seed;

    private FilterFile(MappedFile file, FilterHeader header, VerificationResult verification, bool created)
    {
        _file = file;
        Header = header;
        Verification = verification;
        Created = created;
        _seed = header.Seed;
        _dirtyPages = file.Writable ? new DirtyPageMap(file.Length) : null;
        _lines = new BloomLines(file.Pointer + FilterGeometry.LineSize, header.LineCount, header.K, FilterGeometry.LineSize, _dirtyPages);
    }

    /// <summary>The file's path.</summary>
    public string Path => _file.Path;

    /// <summary>The header read from (or written to) the file.</summary>
    public FilterHeader Header { get; }

    /// <summary>What verification found when the file was opened (or by the last <see cref="Verify"/>).</summary>
    public VerificationResult Verification { get; private set; }

    /// <summary>True when more than the corruption threshold of lines were bad on open: the caller must rebuild from the log.</summary>
    public bool RebuildRequired => Verification.RebuildRequired;

    /// <summary>True when open created a new, empty file.</summary>
    public bool Created { get; }

    /// <summary>True when opened with <see cref="OpenReadOnly"/>; adds then throw.</summary>
    public bool IsReadOnly => !_file.Writable;

    /// <summary>Number of data lines.</summary>
    public uint LineCount => Header.LineCount;

    /// <summary>
    /// Opens the filter at <paramref name="path"/>, or creates an empty one if there is no file, and verifies every line.
    /// Mismatched lines are set to all ones and written back, unless more than the threshold are corrupted; then
    /// nothing is written and <see cref="RebuildRequired"/> is true.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range (nothing is created).</exception>
    /// <exception cref="InvalidFilterHeaderException">The header is not a valid filter header.</exception>
    /// <exception cref="FilterSizeMismatchException">The file was made for another size.</exception>
    /// <exception cref="FilterFileLengthException">The file was truncated or extended.</exception>
    public static FilterFile Open(string path, FilterFileOptions options)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        if (!File.Exists(path))
        {
            return Create(path, options);
        }

        MappedFile file = MappedFile.Open(path, writable: true);
        try
        {
            FilterHeader header = ReadHeader(file);
            if (header.SizeBytes != options.SizeBytes)
            {
                throw new FilterSizeMismatchException(path, header.SizeBytes, options.SizeBytes);
            }

            byte* lines = file.Pointer + FilterGeometry.LineSize;
            VerificationResult found = LineVerifier.Scan(lines, header.LineCount, repair: false, options.CorruptionThreshold, options.VerifyProgress);
            if (found.MismatchedLines > 0 && !found.RebuildRequired)
            {
                // Write the repairs back, so the next start does not find (and count) the same lines again.
                found = LineVerifier.Scan(lines, header.LineCount, repair: true, options.CorruptionThreshold);
                file.Flush();
            }

            return new FilterFile(file, header, found, created: false);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>Opens a file for reading only, whatever size it was made for; verification is left to <see cref="Verify"/>.</summary>
    public static FilterFile OpenReadOnly(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return OpenUnverified(MappedFile.Open(path, writable: false));
    }

    /// <summary>
    /// Opens an existing file for writing, whatever size it was made for, without verifying it: for an offline repair,
    /// which then calls <see cref="Verify"/> with repair. Never creates a file. Takes the writer lock.
    /// </summary>
    /// <exception cref="FileNotFoundException">There is no file.</exception>
    public static FilterFile OpenForRepair(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return OpenUnverified(MappedFile.Open(path, writable: true));
    }

    private static FilterFile OpenUnverified(MappedFile file)
    {
        try
        {
            FilterHeader header = ReadHeader(file);
            var notVerified = new VerificationResult(0, 0, 0, 0, [], FilterFileOptions.DefaultCorruptionThreshold);
            return new FilterFile(file, header, notVerified, created: false);
        }
        catch
        {
            file.Dispose();
            throw;
        }
    }

    /// <summary>Creates a new, empty filter file, replacing any file at <paramref name="path"/>. The file appears complete or not at all.</summary>
    public static FilterFile Create(string path, FilterFileOptions options)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        FilterGeometry geometry = FilterGeometry.FromSize(options.SizeBytes);
        var header = new FilterHeader(FilterHeader.CurrentVersion, (ushort)options.K, options.SizeBytes, geometry.LineCount, options.Seed, Guid.NewGuid());
        MappedFile file = MappedFile.CreateAtomically(path, geometry.FileLength, created => header.WriteTo(created.Span(0, FilterGeometry.LineSize)));
        var empty = new VerificationResult(geometry.LineCount, 0, 0, 0, [], options.CorruptionThreshold);
        return new FilterFile(file, header, empty, created: true);
    }

    /// <summary>Hashes a name given as UTF-16; the same name as UTF-8 bytes hashes the same.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ulong Hash(ReadOnlySpan<char> name) => KeyHasher.Hash(name, _seed);

    /// <summary>Hashes a name given as UTF-8 bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ulong Hash(ReadOnlySpan<byte> utf8Name) => KeyHasher.Hash(utf8Name, _seed);

    /// <summary>False means the name was definitely never added; true means maybe.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<char> name) => _lines.MightExist(Hash(name));

    /// <inheritdoc cref="MightExist(ReadOnlySpan{char})"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<byte> utf8Name) => _lines.MightExist(Hash(utf8Name));

    /// <summary>Looks up a name by a hash from <see cref="Hash(ReadOnlySpan{char})"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExistHash(ulong hash) => _lines.MightExist(hash);

    /// <summary>Adds a name. Returns true if any bit changed. Safe from several threads.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Add(ReadOnlySpan<char> name) => AddHash(Hash(name));

    /// <inheritdoc cref="Add(ReadOnlySpan{char})"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Add(ReadOnlySpan<byte> utf8Name) => AddHash(Hash(utf8Name));

    /// <summary>Adds a name by a hash from <see cref="Hash(ReadOnlySpan{char})"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool AddHash(ulong hash)
    {
        ThrowIfReadOnly();
        return _lines.Add(hash);
    }

    /// <summary>Verifies every line now; with <paramref name="repair"/>, sets mismatched lines to all ones and flushes.</summary>
    public VerificationResult Verify(bool repair, double threshold = FilterFileOptions.DefaultCorruptionThreshold, IProgress<long>? progress = null)
    {
        if (repair)
        {
            ThrowIfReadOnly();
        }

        VerificationResult result = LineVerifier.Scan(_lines.Lines, LineCount, repair, threshold, progress);
        if (result.RepairedLines > 0)
        {
            Flush();
        }

        Verification = result;
        return result;
    }

    /// <summary>Counts bits and estimates names and the false-positive rate. Reads every line: not for the hot path.</summary>
    public FilterStatistics ComputeStatistics() => StatisticsScanner.Scan(_lines.Lines, LineCount, Header.K, Header.SizeBytes);

    /// <summary>
    /// Makes every add that completed before this call durable: msync of the mapping, then fsync of the file.
    /// Adds and lookups carry on while it runs; concurrent flushes run one at a time.
    /// </summary>
    public FlushResult Flush()
    {
        ThrowIfReadOnly();
        lock (_flushGate)
        {
            long started = System.Diagnostics.Stopwatch.GetTimestamp();
            long pages = _dirtyPages!.TakeDirtyPageCount();
            _file.Flush();
            return new FlushResult(pages * _dirtyPages.PageSize, System.Diagnostics.Stopwatch.GetElapsedTime(started));
        }
    }

    /// <summary>Unmaps and closes the file. Does not flush: call <see cref="Flush"/> first to make adds durable.</summary>
    public void Dispose() => _file.Dispose();

    private static FilterHeader ReadHeader(MappedFile file)
    {
        FilterHeader header = FilterHeader.Read(file.Span(0, (int)Math.Min(file.Length, FilterGeometry.LineSize)), file.Path);
        long expected = header.Geometry.FileLength;
        if (file.Length != expected)
        {
            throw new FilterFileLengthException(file.Path, file.Length, expected);
        }

        return header;
    }

    private void ThrowIfReadOnly()
    {
        if (!_file.Writable)
        {
            throw new InvalidOperationException($"Filter file '{Path}' was opened read-only.");
        }
    }
}
