using EventFilter.Daemon.Formats;
using Microsoft.Win32.SafeHandles;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// A filter's append-only log of the 64-bit digests of the items it took in (those BF.ADD answered 1 for), after a
/// checksummed header holding the filter's <see cref="FilterParameters"/>. The log is the filter: layer files are
/// rebuilt and caught up from it. Positions are byte offsets; the bytes are <see cref="DigestLogFormat"/>'s.
/// See docs/daemon-design.md, "Durability".
/// </summary>
internal sealed class DigestLog : IDisposable
{
    // A handle, not a FileStream: FileStream.SafeFileHandle seeks to sync the stream's position on every access, which
    // was an lseek per acknowledged add (a profile of single adds spread over 512 filters).
    private readonly SafeFileHandle _handle;
    private int _disposed;
    // Written by the filter's log writer under its write lock, read under its add lock too (a lookup's catch-up of a
    // new layer, a dump's read): it only grows, and records below it do not change.
    private long _end;

    private DigestLog(SafeFileHandle handle, FilterParameters parameters, long end, DescriptorClaim? claim)
    {
        DescriptorBudget.Opened(1, claim);
        _handle = handle;
        Parameters = parameters;
        _end = end;
    }

    public FilterParameters Parameters { get; }

    /// <summary>The end of the last whole record written (not necessarily synced).</summary>
    public long EndPosition => Volatile.Read(ref _end);

    public long Records => DigestLogFormat.RecordsIn(EndPosition);

    /// <summary>
    /// Creates a log with its header and keeps it open. Nothing is fsynced here: the store makes a create durable before
    /// its reply with --log-sync always, or at the next sync tick (docs/daemon-design.md, "Durability").
    /// Its descriptor is drawn from <paramref name="claim"/>.
    /// </summary>
    public static DigestLog Create(string path, FilterParameters parameters, DescriptorClaim? claim)
    {
        SafeFileHandle handle = File.OpenHandle(path, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.Read);
        try
        {
            Span<byte> header = stackalloc byte[DigestLogFormat.HeaderLength];
            DigestLogFormat.WriteHeader(header, parameters);
            RandomAccess.Write(handle, header, 0);
            return new DigestLog(handle, parameters, DigestLogFormat.HeaderLength, claim);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    /// <summary>
    /// True when the log at <paramref name="path"/> is missing, shorter than its header, or starts with a header of
    /// zeros: a create that never reached the disk (<see cref="DigestLogFormat.IsUnwritten"/>).
    /// </summary>
    public static bool IsUnwritten(string path) => DigestLogFormat.IsUnwritten(FirstBytes(path, DigestLogFormat.HeaderLength));

    /// <summary>Up to <paramref name="count"/> bytes from the start of the file at <paramref name="path"/>; none when it is missing.</summary>
    public static ReadOnlySpan<byte> FirstBytes(string path, int count)
    {
        if (!File.Exists(path))
        {
            return [];
        }

        using SafeFileHandle handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        byte[] header = new byte[count];
        int read = 0;
        for (int got; read < header.Length && (got = RandomAccess.Read(handle, header.AsSpan(read), read)) > 0;)
        {
            read += got;
        }

        return header.AsSpan(0, read);
    }

    /// <summary>
    /// Opens a log, dropping a torn last record (a crash mid-append never acknowledged it); its descriptor is drawn from
    /// <paramref name="claim"/>, or counted now without one.
    /// </summary>
    /// <exception cref="InvalidDataException">The header is missing or fails its checksum.</exception>
    public static DigestLog Open(string path, DescriptorClaim? claim)
    {
        SafeFileHandle handle = File.OpenHandle(path, FileMode.Open, FileAccess.ReadWrite, FileShare.Read);
        try
        {
            Span<byte> header = stackalloc byte[DigestLogFormat.HeaderLength];
            long length = RandomAccess.GetLength(handle);
            if (length < DigestLogFormat.HeaderLength || RandomAccess.Read(handle, header, 0) != DigestLogFormat.HeaderLength
                || !DigestLogFormat.TryReadHeader(header, out FilterParameters parameters))
            {
                throw new InvalidDataException($"'{path}' is not a digest log: its header is missing, of another version or fails its checksum.");
            }

            long end = DigestLogFormat.PositionOf(DigestLogFormat.RecordsIn(length));
            if (end != length)
            {
                RandomAccess.SetLength(handle, end);
            }

            return new DigestLog(handle, parameters, end, claim);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    /// <summary>Appends records with one write; the caller serialises appends.</summary>
    public void Append(ReadOnlySpan<ulong> digests)
    {
        RandomAccess.Write(_handle, System.Runtime.InteropServices.MemoryMarshal.AsBytes(digests), _end);
        Volatile.Write(ref _end, _end + (digests.Length * sizeof(ulong)));
    }

    /// <summary>fsync: every record appended before this call survives power loss. Safe beside appends on other threads.</summary>
    public void Sync() => RandomAccess.FlushToDisk(_handle);

    /// <summary>Reads whole records from <paramref name="position"/> into <paramref name="digests"/>; returns how many.</summary>
    public int Read(long position, Span<ulong> digests)
    {
        int bytes = RandomAccess.Read(_handle, System.Runtime.InteropServices.MemoryMarshal.AsBytes(digests), position);
        return bytes / sizeof(ulong);
    }

    /// <summary>Reads the digests of records [<paramref name="first"/>, first + length); false when the log holds fewer.</summary>
    public bool ReadRecords(long first, Span<ulong> digests)
    {
        if (first < 0 || first + digests.Length > Records)
        {
            return false;
        }

        for (int read = 0; read < digests.Length;)
        {
            int got = Read(DigestLogFormat.PositionOf(first + read), digests[read..]);
            if (got == 0)
            {
                return false;
            }

            read += got;
        }

        return true;
    }

    public void Dispose()
    {
        _handle.Dispose();
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            DescriptorBudget.Closed(1);
        }
    }
}
