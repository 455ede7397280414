using System.IO.MemoryMappedFiles;
using EventFilter.Daemon.Formats;
using Microsoft.Win32.SafeHandles;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// With --log-sync periodic, the record of creates and drops: one small record per BF.RESERVE or DEL, where the filter's
/// directory and files would cost inode allocations on the request path. Two files take turns (DataLayout.ControlLogFiles):
/// a sync tick makes the other one active (<see cref="Switch"/>), carrying over the creates of filters that still
/// have no files, and once the records of the one it left are durable elsewhere, empties it (<see cref="ResetInactive"/>).
/// So creates and drops never wait for the tick's fsyncs, and neither file holds more than an interval's records and
/// the carried creates. A start reads both, the older epoch first. The bytes are <see cref="ControlLogFormat"/>'s. See docs/daemon-design.md, "Durability".
/// </summary>
internal sealed class ControlLog : IDisposable
{
    private readonly ControlFile[] _files;
    private int _active;
    // Records read at the start and not yet switched away from: the first tick must carry or apply them.
    private bool _readAtOpen;

    private ControlLog(ControlFile[] files, int active, bool readAtOpen, bool inactiveHadRecords)
    {
        _files = files;
        _active = active;
        _readAtOpen = readAtOpen;
        InactiveHadRecords = inactiveHadRecords;
    }

    /// <summary>True when the file that is inactive after <see cref="Open"/> held records: a start must carry from it before it empties it.</summary>
    public bool InactiveHadRecords { get; }

    /// <summary>True when a record was appended since the last <see cref="Switch"/> (beyond the ones it carried over), or read at the start.</summary>
    public bool HasNewRecords => _readAtOpen || _files[_active].HasNewRecords;

    /// <summary>
    /// Opens both files of <paramref name="dataDirectory"/>, making missing ones, and returns their records in the
    /// order they were written: the older epoch's file first, each up to its first torn or stale record. A missing,
    /// short or all-zero header (a file that never reached the disk) reads as no records.
    /// </summary>
    /// <exception cref="InvalidDataException">A header has non-zero bytes and fails its checksum.</exception>
    public static ControlLog Open(string dataDirectory, out List<ControlRecord> records)
    {
        var files = new ControlFile[DataLayout.ControlLogFiles.Length];
        var read = new List<ControlRecord>[files.Length];
        try
        {
            for (int i = 0; i < files.Length; i++)
            {
                files[i] = ControlFile.Open(Path.Combine(dataDirectory, DataLayout.ControlLogFiles[i]), out read[i]);
            }
        }
        catch
        {
            foreach (ControlFile? file in files)
            {
                file?.Dispose();
            }

            throw;
        }

        int newer = files[1].Epoch > files[0].Epoch ? 1 : 0;
        records = [.. read[1 - newer], .. read[newer]];
        if (files[newer].Epoch == 0)
        {
            // Neither file was ever written (a new data directory, or power loss before the first sync of either).
            files[newer].Reset(1, sync: true);
        }

        // New records go to the file of the higher epoch, so that they replay after whatever the other one holds.
        return new ControlLog(files, newer, records.Count > 0, read[1 - newer].Count > 0);
    }

    /// <summary>Appends one record to the active file, a copy into its mapping (the page cache has it from then on, so it survives SIGKILL); the caller serialises appends.</summary>
    public void Append(ControlRecord record) => _files[_active].Append(record);

    /// <summary>
    /// Appends the digests of items added to the filter <paramref name="name"/>, which has no files yet: a record per
    /// <see cref="ControlLogFormat.MaxItemsPerRecord"/> of them, copied into the mapping as <see cref="Append"/> does.
    /// </summary>
    public void AppendItems(string name, ReadOnlySpan<ulong> digests)
    {
        for (int first = 0; first < digests.Length; first += ControlLogFormat.MaxItemsPerRecord)
        {
            _files[_active].AppendItems(name, digests.Slice(first, Math.Min(ControlLogFormat.MaxItemsPerRecord, digests.Length - first)));
        }
    }

    /// <summary>
    /// Makes the other file active, with an epoch above this one's, and appends <paramref name="carried"/> to it. The
    /// caller holds the lock its appends take, so that no record lands in the file being left after this. The other
    /// file must be empty (emptied by <see cref="ResetInactive"/>): a switch overwrites it. After a start, or a tick
    /// that failed after its switch, the other file may still hold records, and the caller finishes instead
    /// (docs/daemon-design.md, "Control-log recovery").
    /// </summary>
    public void Switch(IEnumerable<ControlRecord> carried)
    {
        ControlFile next = _files[1 - _active];
        next.Reset(_files[_active].Epoch + 1, sync: false);
        _active = 1 - _active;
        foreach (ControlRecord record in carried)
        {
            next.Append(record);
        }

        next.MarkCarried();
        _readAtOpen = false;
    }

    /// <summary>fsyncs the active file: the records carried into it, and any since, survive power loss.</summary>
    public void SyncActive() => _files[_active].Sync();

    /// <summary>
    /// Empties the file the last <see cref="Switch"/> left, once what it says is durable in <c>filters/</c> or carried:
    /// a header of an epoch above the active file's (the next switch makes it active), the file cut to it, an fsync.
    /// </summary>
    public void ResetInactive() => _files[1 - _active].Reset(_files[_active].Epoch + 1, sync: true);

    public void Dispose()
    {
        foreach (ControlFile file in _files)
        {
            file.Dispose();
        }
    }

    /// <summary>
    /// One of the two files, written through a shared mapping: an append is a copy into memory the page cache owns (no
    /// system call), so from there it survives SIGKILL. The file's blocks are reserved ahead of the records
    /// (FileSpace.Reserve), so that a full disk fails here and not as a store into the mapping (SIGBUS); they read as
    /// zeros, and the first zero byte after the records ends them for a reader. It doubles when full, under the
    /// caller's lock: a reservation changes only metadata, so the lock is not held for long.
    /// </summary>
    private sealed class ControlFile : IDisposable
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
                    throw new InvalidDataException($"'{path}' is not a control log: its header is of another format or fails its checksum.");
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
    }
}
