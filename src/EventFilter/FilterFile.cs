using System.Runtime.CompilerServices;
using EventFilter.Blocked;
using EventFilter.Errors;
using EventFilter.Format;
using EventFilter.Hashing;
using EventFilter.Journal;
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

    // Flush, fold and open use it; the hot path never does.
    private readonly ChangeJournal _journal;

    // Copied out of the header so the hot path reads one field, not a 48-byte struct.
    private readonly ulong _seed;

    private FilterFile(MappedFile file, FilterHeader header, VerificationResult verification, bool created, FilterFileOptions options)
    {
        _file = file;
        Header = header;
        Verification = verification;
        Created = created;
        _seed = header.Seed;
        AtomicBitmap? changedLines = file.Writable ? new AtomicBitmap(header.LineCount) : null;
        _lines = new BloomLines(file.Pointer + FilterGeometry.LineSize, header.LineCount, header.K, changedLines, header.LinesPerKey);
        long foldThresholdBytes = options.JournalFoldBytes ?? Math.Max(file.Length / 4, 64 * 1024);
        _journal = new ChangeJournal(file, _lines, header, changedLines, foldThresholdBytes, options.TimeProvider);
    }

    /// <summary>The file's path.</summary>
    public string Path => _journal.Path;

    /// <summary>The header read from (or written to) the file.</summary>
    public FilterHeader Header { get; }

    /// <summary>What verification found when the file was opened (or by the last <see cref="Verify"/>).</summary>
    public VerificationResult Verification { get; private set; }

    /// <summary>True when more than the corruption threshold of lines were bad on open: the caller must rebuild from the log.</summary>
    internal bool RebuildRequired => Verification.RebuildRequired;

    /// <summary>True when open created a new, empty file.</summary>
    public bool Created { get; }

    /// <summary>True when opened read-only with <see cref="OpenExisting"/>; adds then throw.</summary>
    internal bool IsReadOnly => !_file.Writable;

    /// <summary>Number of data lines.</summary>
    internal uint LineCount => Header.LineCount;

    /// <summary>
    /// Opens the filter at <paramref name="path"/>, or creates an empty one (and its directory) if there is no file, and verifies every line.
    /// Mismatched lines are set to all ones, unless more than the threshold are corrupted; then nothing is written and
    /// <see cref="RebuildRequired"/> is true. Then the journal is replayed, and repairs and journal are folded into
    /// the file (docs/design.md, "Changed-line journal").
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

        return OpenMapped(MappedFile.Open(path, writable: true), options, filter => filter.VerifyAndRecover(path, options));
    }

    /// <summary>
    /// Opens an existing file, whatever size it was made for, without verifying it: for inspection (read-only) or an
    /// offline repair (<paramref name="writable"/>, which takes the writer lock), followed by <see cref="Verify"/>. Never
    /// creates a file. Its journal is replayed into memory, so lookups answer as the live filter would; nothing is
    /// written until <see cref="FoldJournal"/> or a repairing <see cref="Verify"/>.
    /// </summary>
    /// <exception cref="FileNotFoundException">There is no file.</exception>
    public static FilterFile OpenExisting(string path, bool writable = false)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return OpenMapped(MappedFile.Open(path, writable), options: null, filter => filter._journal.Replay());
    }

    /// <summary>Reads the header of a mapped file, then <paramref name="open"/> does the rest; unverified until then.</summary>
    private static FilterFile OpenMapped(MappedFile file, FilterFileOptions? options, Action<FilterFile> open)
    {
        FilterFile? filter = null;
        try
        {
            FilterHeader header = ReadHeader(file);
            var notVerified = new VerificationResult(0, 0, 0, 0, [], FilterFileOptions.DefaultCorruptionThreshold);
            // OpenExisting's file keeps its header's settings; what a header does not hold (the clock, the fold threshold) is the default.
            filter = new FilterFile(file, header, notVerified, created: false, options ?? new FilterFileOptions { SizeBytes = header.SizeBytes });
            open(filter);
            return filter;
        }
        catch
        {
            // A failed open closes what it opened: the filter once made (it owns the mapping, and maybe a journal), else the mapping.
            ((IDisposable?)filter ?? file).Dispose();
            throw;
        }
    }

    /// <summary>
    /// Verifies every line; unless a rebuild is required, repairs mismatched lines, marking them changed so the fold
    /// that recovery ends with writes them back and the next start does not find (and count) the same lines again.
    /// </summary>
    private void VerifyAndRecover(string path, FilterFileOptions options)
    {
        if (Header.SizeBytes != options.SizeBytes)
        {
            throw new FilterSizeMismatchException(path, Header.SizeBytes, options.SizeBytes);
        }

        Verification = ScanLines(repair: false, options.CorruptionThreshold, options.VerifyProgress, repairedLines: null);
        if (Verification.RebuildRequired)
        {
            return; // nothing is written: the caller rebuilds
        }

        if (Verification.MismatchedLines > 0)
        {
            Verification = ScanLines(repair: true, options.CorruptionThreshold, progress: null, _journal.ChangedLines);
        }

        _journal.Recover();
    }

    /// <summary>
    /// Creates a new, empty filter file, replacing any file at <paramref name="path"/> (and its journal), and the
    /// directory if it is missing. The file appears complete or not at all.
    /// </summary>
    public static FilterFile Create(string path, FilterFileOptions options)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        FilterGeometry geometry = options.Geometry;
        var header = new FilterHeader(FilterHeader.VersionFor(options.LinesPerKey, options.SizeCountsFilterBits), (ushort)options.K, options.SizeBytes, geometry.LineCount, options.Seed, Guid.NewGuid(), (ushort)options.LinesPerKey);
        Span<byte> headerBytes = stackalloc byte[FilterGeometry.LineSize];
        header.WriteTo(headerBytes);

        // As StreamExistenceFilter.Open does; otherwise the first file made, the lock, fails naming itself.
        Directory.CreateDirectory(System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(path))!);

        // A journal left by the file this one replaces names the old file's id and would be skipped; it goes now.
        JournalFiles.Delete(path);
        MappedFile file = MappedFile.CreateAtomically(path, geometry.FileLength, headerBytes, options.SyncOnCreate);
        var empty = new VerificationResult(geometry.LineCount, 0, 0, 0, [], options.CorruptionThreshold);
        return new FilterFile(file, header, empty, created: true, options);
    }

    /// <summary>Hashes a name given as UTF-16; the same name as UTF-8 bytes hashes the same.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ulong Hash(ReadOnlySpan<char> name) => KeyHasher.Hash(name, _seed);

    /// <summary>Hashes a name given as UTF-8 bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ulong Hash(ReadOnlySpan<byte> utf8Name) => KeyHasher.Hash(utf8Name, _seed);

    /// <summary>False means the name was definitely never added; true means maybe.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<char> name) => _lines.MightExist(Hash(name));

    /// <inheritdoc cref="MightExist(ReadOnlySpan{char})"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<byte> utf8Name) => _lines.MightExist(Hash(utf8Name));

    /// <summary>Looks up a key by its hash (see <see cref="AddHash"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExistHash(ulong hash) => _lines.MightExist(hash);

    /// <summary>Adds a name. Returns true if any bit changed. Safe from several threads.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Add(ReadOnlySpan<char> name) => AddHash(Hash(name));

    /// <inheritdoc cref="Add(ReadOnlySpan{char})"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Add(ReadOnlySpan<byte> utf8Name) => AddHash(Hash(utf8Name));

    /// <summary>A host's add of the log record ending at <paramref name="recordEnd"/> (see <see cref="StreamExistenceFilter.Add(ReadOnlySpan{char}, long)"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool Add(ReadOnlySpan<char> name, long recordEnd)
    {
        ThrowIfReadOnly();
        return _lines.Add(Hash(name), recordEnd);
    }

    /// <inheritdoc cref="Add(ReadOnlySpan{char}, long)"/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal bool Add(ReadOnlySpan<byte> utf8Name, long recordEnd)
    {
        ThrowIfReadOnly();
        return _lines.Add(Hash(utf8Name), recordEnd);
    }

    /// <summary>The highest record end of the host adds so far: what a file built beside this one must cover.</summary>
    internal long HighestRecordEnd => _lines.HighestRecordEnd();

    /// <summary>The log was cut at <paramref name="position"/>: what was added past it will never be durable.</summary>
    internal void CapRecordEnds(long position) => _lines.CapRecordEnds(position);

    /// <summary>
    /// Adds a key by its hash: the XXH3-64 of its UTF-8 bytes with the file's seed (<see cref="FilterHeader.Seed"/>, 0 by
    /// default), which is what <see cref="Add(ReadOnlySpan{byte})"/> computes; docs/file-format.md, "Probes".
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool AddHash(ulong hash)
    {
        ThrowIfReadOnly();
        return _lines.Add(hash);
    }

    /// <summary>
    /// Hears that about <paramref name="names"/> adds are coming (a catch-up's estimate). Each add writes one line in a
    /// random page; from two names per page on, most pages (86%) would take a copy-on-write fault of their own, and
    /// making all the private copies in one call is cheaper (docs/design.md, "Catch-up").
    /// </summary>
    public void ExpectAdds(long names) => ExpectAdds(names, threads: 1);

    /// <summary><see cref="ExpectAdds(long)"/>, making the private copies on <paramref name="threads"/> threads at once.</summary>
    internal void ExpectAdds(long names, int threads)
    {
        if (names >= 2 * (_file.Length / Environment.SystemPageSize))
        {
            _file.PopulateForWrites(threads);
        }
    }

    /// <summary>Counts bits and estimates names and the false-positive rate. Reads every line: not for the hot path.</summary>
    public FilterStatistics ComputeStatistics() => StatisticsScanner.Scan(_lines.Lines, LineCount, Header.K, Header.LinesPerKey, Header.SizeBytes);

    /// <summary>
    /// Waits for a background fold, then unmaps and closes the file. Does not flush: call <see cref="Flush()"/> first
    /// to make adds durable.
    /// </summary>
    public void Dispose()
    {
        _journal.Dispose();
        _file.Dispose();
    }

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
