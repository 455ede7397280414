using Microsoft.Win32.SafeHandles;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// With --log-sync periodic, the record of creates and drops: one small write per BF.RESERVE or DEL, where the filter's
/// directory and files would cost inode allocations on the request path. Two files take turns (DataLayout.ControlLogFiles):
/// a sync tick makes the other one active (<see cref="Switch"/>), carrying over the creates of filters that still
/// have no files, and once the records of the one it left are durable elsewhere, empties it (<see cref="ResetInactive"/>).
/// So creates and drops never wait for the tick's fsyncs, and neither file grows past an interval's records. A start
/// reads both, the older epoch first. The bytes are <see cref="ControlLogFormat"/>'s. See docs/daemon.md, "Durability".
/// </summary>
internal sealed class ControlLog : IDisposable
{
    private readonly ControlFile[] _files;
    private int _active;
    // Records read at the start and not yet switched away from: the first tick must carry or apply them.
    private bool _readAtOpen;

    private ControlLog(ControlFile[] files, int active, bool readAtOpen)
    {
        _files = files;
        _active = active;
        _readAtOpen = readAtOpen;
    }

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
        return new ControlLog(files, newer, records.Count > 0);
    }

    /// <summary>Appends one record to the active file with one write (the page cache has it from then on, so it survives SIGKILL); the caller serialises appends.</summary>
    public void Append(ControlRecord record) => _files[_active].Append(record);

    /// <summary>
    /// Makes the other file active, with an epoch above this one's, and appends <paramref name="carried"/> to it. The
    /// caller holds the lock its appends take, so that no record lands in the file being left after this. A file not
    /// yet emptied (a tick that failed after its switch) is emptied here: everything its records said is still in
    /// the store's memory, and is carried or redone by this tick.
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

    /// <summary>One of the two files: its handle, its epoch and the end of its records.</summary>
    private sealed class ControlFile(SafeFileHandle handle, uint epoch, long end) : IDisposable
    {
        // The end of the records a switch carried over: appends beyond it are news for the next tick.
        private long _carriedEnd = ControlLogFormat.HeaderLength;

        public uint Epoch { get; private set; } = epoch;

        public bool HasNewRecords => end > _carriedEnd;

        public void MarkCarried() => _carriedEnd = end;

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
                if (ControlLogFormat.IsUnwritten(content))
                {
                    return new ControlFile(handle, 0, 0); // no records, the lowest epoch: reset when it is switched to
                }

                if (!ControlLogFormat.TryReadHeader(content, out uint epoch))
                {
                    throw new InvalidDataException($"'{path}' is not a control log: its header is of another format or fails its checksum.");
                }

                int position = ControlLogFormat.HeaderLength;
                while (ControlLogFormat.TryReadRecord(content[position..], epoch, out ControlRecord record, out int length))
                {
                    records.Add(record);
                    position += length;
                }

                return new ControlFile(handle, epoch, position);
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
            int length = ControlLogFormat.WriteRecord(bytes, Epoch, record);
            RandomAccess.Write(handle, bytes[..length], end);
            end += length;
        }

        /// <summary>
        /// A header of <paramref name="newEpoch"/> (which makes any record still behind it unreadable), then the file cut
        /// to it; with <paramref name="sync"/>, an fsync, so that power loss cannot bring back records already applied.
        /// </summary>
        public void Reset(uint newEpoch, bool sync)
        {
            Span<byte> header = stackalloc byte[ControlLogFormat.HeaderLength];
            ControlLogFormat.WriteHeader(header, newEpoch);
            RandomAccess.Write(handle, header, 0);
            RandomAccess.SetLength(handle, ControlLogFormat.HeaderLength);
            if (sync)
            {
                RandomAccess.FlushToDisk(handle);
            }

            Epoch = newEpoch;
            end = _carriedEnd = ControlLogFormat.HeaderLength;
        }

        public void Sync() => RandomAccess.FlushToDisk(handle);

        public void Dispose() => handle.Dispose();
    }
}
