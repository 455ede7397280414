using EventFilter.Daemon.Formats;

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
    // Taken by every append, and held by a tick across its choice of the filters to make and its switch, so that a
    // record lands in the file a switch leaves only if the tick's choice saw it (docs/daemon-design.md, "Locks").
    private readonly Lock _appends = new();
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

    /// <summary>
    /// Held by a tick while it chooses what to make durable and switches files (<see cref="Switch"/>): no append lands
    /// meanwhile. Appends take it themselves.
    /// </summary>
    public Lock Appends => _appends;

    /// <summary>Appends one record to the active file, a copy into its mapping (the page cache has it from then on, so it survives SIGKILL).</summary>
    public void Append(ControlRecord record)
    {
        lock (_appends)
        {
            _files[_active].Append(record);
        }
    }

    /// <summary>
    /// Appends the digests of items added to the filter <paramref name="name"/>, which has no files yet: a record per
    /// <see cref="ControlLogFormat.MaxItemsPerRecord"/> of them, copied into the mapping as <see cref="Append"/> does.
    /// </summary>
    public void AppendItems(string name, ReadOnlySpan<ulong> digests)
    {
        lock (_appends)
        {
            for (int first = 0; first < digests.Length; first += ControlLogFormat.MaxItemsPerRecord)
            {
                _files[_active].AppendItems(name, digests.Slice(first, Math.Min(ControlLogFormat.MaxItemsPerRecord, digests.Length - first)));
            }
        }
    }

    /// <summary>
    /// Makes the other file active, with an epoch above this one's, and appends <paramref name="carried"/> to it. The
    /// caller holds <see cref="Appends"/>, so that no record lands in the file being left after this. The other
    /// file must be empty (emptied by <see cref="ResetInactive"/>): a switch overwrites it. After a start, or a tick
    /// that failed after its switch, the other file may still hold records, and the caller finishes instead
    /// (docs/daemon-design.md, "Control-log recovery").
    /// </summary>
    public void Switch(IEnumerable<ControlRecord> carried)
    {
        lock (_appends)
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
}
