using System.IO.MemoryMappedFiles;
using EventFilter.Daemon.Formats;
using Microsoft.Win32.SafeHandles;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// One of the control log's two files, written through a shared mapping: an append is a copy into memory the page cache owns (no
/// system call), so from there it survives SIGKILL. The file's blocks are reserved ahead of the records
/// (FileSpace.Reserve), so that a full disk fails here and not as a store into the mapping (SIGBUS); they read as
/// zeros, and the first zero byte after the records ends them for a reader. It doubles when full, under the
/// control log's append lock (ControlLog.Appends): a reservation changes only metadata, so the lock is not held for long.
/// </summary>
internal sealed class ControlFile : IDisposable
{
    private const int InitialCapacity = 256 * 1024;
    private static readonly byte[] Zeros = new byte[64 * 1024];

    private readonly SafeFileHandle _handle;
    private MemoryMappedFile _map;
    private MemoryMappedViewAccessor _view;
    private long _capacity;
    private long _end;
    // The end of the records a switch carried over: appends beyond it are news for the next tick.
    private long _carriedEnd = ControlLogFormat.HeaderLength;

    private ControlFile(SafeFileHandle handle, uint epoch, long end, long capacity)
    {
        _handle = handle;
        Epoch = epoch;
        _end = end;
        _capacity = capacity;
        (_map, _view) = Map(handle, capacity);
    }

    public uint Epoch { get; private set; }

    public bool HasNewRecords => _end > _carriedEnd;

    public void MarkCarried() => _carriedEnd = _end;

    public static ControlFile Open(string path, out List<ControlRecord> records)
    {
        records = [];
        SafeFileHandle handle = File.OpenHandle(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read);
        try
        {
            byte[] bytes = new byte[RandomAccess.GetLength(handle)];
            int read = 0;
            for (int got; read < bytes.Length && (got = RandomAccess.Read(handle, bytes.AsSpan(read), read)) > 0;)
            {
                read += got;
            }

            ReadOnlySpan<byte> content = bytes.AsSpan(0, read);
            // No header: epoch 0, the lowest, given a header when it is switched to.
            if (!ControlLogFormat.TryReadFile(content, out uint epoch, out int position, records))
            {
                throw ControlFile.Damaged(path);
            }

            // Zeros after the records: whatever follows a torn record, or a record of an earlier epoch, goes.
            int stale = content[position..].LastIndexOfAnyExcept((byte)0) + 1;
            for (int offset = position; offset < position + stale; offset += Zeros.Length)
            {
                RandomAccess.Write(handle, Zeros.AsSpan(0, Math.Min(Zeros.Length, position + stale - offset)), offset);
            }

            long capacity = Math.Max(InitialCapacity, read);
            EventFilter.Storage.FileSpace.Reserve(handle, 0, capacity);
            return new ControlFile(handle, epoch, position, capacity);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    public void Append(ControlRecord record)
    {
        Span<byte> bytes = stackalloc byte[ControlLogFormat.MaxRecordLength];
        Write(bytes[..ControlLogFormat.WriteRecord(bytes, Epoch, record)]);
    }

    public void AppendItems(string name, ReadOnlySpan<ulong> digests)
    {
        Span<byte> bytes = stackalloc byte[ControlLogFormat.MaxRecordLength];
        Write(bytes[..ControlLogFormat.WriteItems(bytes, Epoch, name, digests)]);
    }

    private void Write(ReadOnlySpan<byte> bytes)
    {
        int length = bytes.Length;
        if (_end + length > _capacity)
        {
            Grow(Math.Max(_capacity * 2, _end + length));
        }

        _view.SafeMemoryMappedViewHandle.WriteSpan((ulong)_end, bytes);
        _end += length;
    }

    /// <summary>
    /// Zeros over the records and a header of <paramref name="newEpoch"/>; with <paramref name="sync"/>, an fsync, so
    /// that power loss cannot bring back records already applied. A record of an earlier epoch that survived anyway
    /// (a write-back torn by power loss) fails its checksum under the new one.
    /// </summary>
    public void Reset(uint newEpoch, bool sync)
    {
        for (long offset = ControlLogFormat.HeaderLength; offset < _end; offset += Zeros.Length)
        {
            _view.SafeMemoryMappedViewHandle.WriteSpan((ulong)offset, new ReadOnlySpan<byte>(Zeros, 0, (int)Math.Min(Zeros.Length, _end - offset)));
        }

        Span<byte> header = stackalloc byte[ControlLogFormat.HeaderLength];
        ControlLogFormat.WriteHeader(header, newEpoch);
        _view.SafeMemoryMappedViewHandle.WriteSpan(0, (ReadOnlySpan<byte>)header);
        if (sync)
        {
            Sync();
        }

        Epoch = newEpoch;
        _end = _carriedEnd = ControlLogFormat.HeaderLength;
    }

    /// <summary>fsync: on Linux it writes back the pages the mapping dirtied as well.</summary>
    public void Sync() => RandomAccess.FlushToDisk(_handle);

    public void Dispose()
    {
        _view.Dispose();
        _map.Dispose();
        _handle.Dispose();
    }

    /// <summary>More space reserved, then the mapping made again over the larger file (the caller serialises appends).</summary>
    private void Grow(long capacity)
    {
        EventFilter.Storage.FileSpace.Reserve(_handle, _capacity, capacity - _capacity);
        _view.Dispose();
        _map.Dispose();
        (_map, _view) = Map(_handle, capacity);
        _capacity = capacity;
    }

    private static (MemoryMappedFile, MemoryMappedViewAccessor) Map(SafeFileHandle handle, long capacity)
    {
        // ReadWrite is MAP_SHARED: stores reach the page cache, and so the file.
        MemoryMappedFile map = MemoryMappedFile.CreateFromFile(handle, mapName: null, capacity, MemoryMappedFileAccess.ReadWrite, HandleInheritability.None, leaveOpen: true);
        try
        {
            return (map, map.CreateViewAccessor(0, capacity, MemoryMappedFileAccess.ReadWrite));
        }
        catch
        {
            map.Dispose();
            throw;
        }
    }

    /// <summary>Marks the error of a damaged control file (<see cref="Damaged"/>) in its <see cref="Exception.Data"/>.</summary>
    public const string DamagedKey = "EventFilter.Daemon.DamagedControlLog";

    /// <summary>
    /// The error of a control file whose header is of another format or fails its checksum. Unlike a damaged filter's
    /// directory it may not be moved away: it may hold the only record of creates, drops and held items, so the start's
    /// refusal says so (Server/FilterLifetime.cs).
    /// </summary>
    public static InvalidDataException Damaged(string path)
    {
        var error = new InvalidDataException($"'{path}' is not a control log: its header is of another format or fails its checksum.");
        error.Data[DamagedKey] = path;
        return error;
    }
}
