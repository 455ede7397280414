using System.Runtime.InteropServices;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// A pending filter (created with --log-sync periodic, recorded in the control log, no files yet) and its first items,
/// held in memory with their digests written to the control log (<see cref="IHeldItemsLog"/>) instead of making its
/// directory, log and layer file on the add's path. The next sync tick gives it its files (<see cref="Materialize"/>); so does an add past <see cref="MaxHeldItems"/>, a dump, or a
/// start with --log-sync always. See docs/daemon-design.md, "Durability".
/// </summary>
internal sealed partial class NamedFilter
{
    /// <summary>
    /// Most items a filter holds before it has files (and never more than its first layer's capacity): they bound the
    /// memory of a new filter and the control log's bytes between ticks, as many items as a checkpoint lets pile up.
    /// </summary>
    public const int MaxHeldItems = 8192;

    // The held digests, exactly: lookups answer from the set, and the list keeps the order the log will have. Null
    // when none is held. Under _gate.
    private HashSet<ulong>? _heldSet;
    private List<ulong>? _heldOrder;
    // Set once some held digest is in the control log, under the held-items log's lock: a tick that switches control
    // files then makes this filter's files before it empties the file it left.
    private volatile bool _itemsRecorded;

    /// <summary>True once digests of held items were written to the control log (read by the tick under its lock).</summary>
    public bool HasRecordedItems => _itemsRecorded;

    /// <summary>
    /// A filter with no files yet, whose create the caller recorded in the control log: <see cref="Materialize"/> makes
    /// its directory and log. Until then its items are the ones it holds (<paramref name="heldLog"/>).
    /// </summary>
    public static NamedFilter CreatePending(string directory, byte[] key, FilterParameters parameters, FilterObserver observer, Action? filesMade = null, IHeldItemsLog? heldLog = null) =>
        new(directory, key, parameters, null, observer, filesMade, heldLog);

    /// <summary>
    /// Gives a pending filter its directory and log, with the items it holds, and the layers they reach (not durable:
    /// <see cref="Checkpoint"/> makes them so).
    /// </summary>
    /// <param name="byTick">The tick that fsyncs the files is the caller, so the store is not told to run another.</param>
    /// <exception cref="ObjectDisposedException">The filter was dropped.</exception>
    public void Materialize(bool byTick = false)
    {
        lock (_gate)
        {
            MaterializeLocked(tell: !byTick);
            OpenLayersToEnd();
        }
    }

    /// <summary>True once the filter has its directory (a pending filter has none, so a drop has nothing to rename).</summary>
    public bool IsMaterialized { get { lock (_gate) { return _log is not null; } } }


    private int HeldCount => _heldOrder?.Count ?? 0;

    /// <summary>Called by <see cref="IHeldItemsLog.Write"/> under its lock, once the digests are in the control log.</summary>
    public void ItemsRecorded() => _itemsRecorded = true;

    /// <summary>
    /// A start gives a pending filter the items the control log recorded for it after its create (already recorded, so
    /// the first tick makes its files).
    /// </summary>
    public void Hold(IEnumerable<ulong> digests)
    {
        lock (_gate)
        {
            foreach (ulong digest in digests)
            {
                HoldLocked(digest);
            }

            _itemsRecorded = HeldCount > 0;
        }
    }

    /// <summary>
    /// Holds a new item of a pending filter in memory, if it can: only with a held-items log, and below the limit. The
    /// caller answers it as added; <see cref="WriteHeld"/> records it before the reply.
    /// </summary>
    private bool TryHold(ulong digest)
    {
        if (_log is not null || _heldLog is null || HeldCount >= Math.Min(MaxHeldItems, Parameters.LayerCapacity(0)))
        {
            return false;
        }

        HoldLocked(digest);
        _unwritten.Add(digest);
        return true;
    }

    private void HoldLocked(ulong digest)
    {
        if ((_heldSet ??= []).Add(digest))
        {
            (_heldOrder ??= []).Add(digest);
        }
    }

    private bool IsHeld(ulong digest) => _heldSet?.Contains(digest) == true;

    /// <summary>Writes the held items added since the last call to the control log (under _gate).</summary>
    private void WriteHeld()
    {
        if (_unwritten.Count > 0)
        {
            _heldLog!.Write(this, _unwritten.Queued);
            _unwritten.Clear();
        }
    }

    /// <summary>
    /// The log of a filter that holds items: made in a ".tmp" directory with every held digest, then renamed into place,
    /// so that a crash leaves either no directory (the control log's records bring the items back) or one whose log
    /// has them all: a start takes a filter's directory over its records. The items leave memory for the log.
    /// </summary>
    private DigestLog CreateLogOfHeld()
    {
        string staging = $"{_directory}.held{DataLayout.CreatingSuffix}";
        if (Directory.Exists(staging))
        {
            Directory.Delete(staging, recursive: true); // left by a tick that failed before its rename
        }

        Directory.CreateDirectory(staging);
        DigestLog log = DigestLog.Create(LogPath(staging), _parameters);
        try
        {
            log.Append(CollectionsMarshal.AsSpan(_heldOrder));
            Directory.Move(staging, _directory); // the open log follows its inode
        }
        catch
        {
            log.Dispose();
            throw;
        }

        _heldSet = null;
        _heldOrder = null;
        _unwritten.Clear(); // every queued digest was held, so it is in the log now
        return log;
    }

    private static void WriteKeyFile(string path, byte[] key)
    {
        using var file = new FileStream(path, FileMode.CreateNew, FileAccess.Write);
        file.Write(KeyFileFormat.Write(key));
        file.Flush(flushToDisk: true);
    }
}
