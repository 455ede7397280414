using System.Runtime.InteropServices;

namespace EventLog.Index;

/// <summary>
/// The newest part of the stream index, in memory: the durable records of one contiguous log range, keyed by stream
/// name (so no hash collisions here). Within one range a stream's events are consecutive, so each stream needs only its
/// first event number and its positions. The writer adds; readers look up under the same short lock. Once sealed it is
/// immutable and waits to be written as an index file.
/// </summary>
internal sealed class MemTable
{
    private readonly Dictionary<string, Slot> _streams = new(StringComparer.Ordinal);
    private readonly Lock _gate = new();
    private long _toPosition;

    public MemTable(long fromPosition)
    {
        FromPosition = fromPosition;
        _toPosition = fromPosition;
    }

    /// <summary>The first log position this table covers.</summary>
    public long FromPosition { get; }

    /// <summary>Just past the last log position this table covers: every record in [From, To) is in it.</summary>
    public long ToPosition => Volatile.Read(ref _toPosition);

    /// <summary>Entries (events) held.</summary>
    public int Count { get; private set; }

    /// <summary>Distinct streams held.</summary>
    public int StreamCount => _streams.Count;

    /// <summary>Adds one durable record. A stream's events must arrive in order, as the log holds them.</summary>
    public void Add(string streamName, ulong hash, long eventNumber, long position)
    {
        lock (_gate)
        {
            ref Slot slot = ref CollectionsMarshal.GetValueRefOrAddDefault(_streams, streamName, out bool exists);
            if (!exists)
            {
                slot = new Slot(hash, eventNumber, position);
            }
            else if (eventNumber != slot.FirstEventNumber + slot.Count)
            {
                throw new InvalidOperationException($"Stream '{streamName}' got event {eventNumber} after {slot.FirstEventNumber + slot.Count - 1}.");
            }
            else
            {
                (slot.More ??= []).Add(position);
            }

            Count++;
        }
    }

    /// <summary>Every record before <paramref name="position"/> is now in the table.</summary>
    public void CoverTo(long position) => Volatile.Write(ref _toPosition, position);

    /// <summary>The stream's last event number in this table; null when the table has none of it.</summary>
    public long? LastEventNumber(string streamName)
    {
        lock (_gate)
        {
            return _streams.TryGetValue(streamName, out Slot slot) ? slot.FirstEventNumber + slot.Count - 1 : null;
        }
    }

    /// <summary>Adds the entries of the stream's events numbered <paramref name="from"/> to <paramref name="to"/>.</summary>
    public void CollectRange(string streamName, long from, long to, List<IndexEntry> found)
    {
        lock (_gate)
        {
            if (!_streams.TryGetValue(streamName, out Slot slot))
            {
                return;
            }

            long first = Math.Max(from, slot.FirstEventNumber), last = Math.Min(to, slot.FirstEventNumber + slot.Count - 1);
            for (long number = first; number <= last; number++)
            {
                int i = (int)(number - slot.FirstEventNumber);
                found.Add(new IndexEntry(slot.Hash, number, i == 0 ? slot.FirstPosition : slot.More![i - 1]));
            }
        }
    }

    /// <summary>All entries sorted by (hash, event number): the content of the index file this table becomes.</summary>
    public IndexEntry[] ToSortedEntries()
    {
        lock (_gate)
        {
            var entries = new IndexEntry[Count];
            int next = 0;
            foreach (Slot slot in _streams.Values)
            {
                entries[next++] = new IndexEntry(slot.Hash, slot.FirstEventNumber, slot.FirstPosition);
                for (int i = 0; i < (slot.More?.Count ?? 0); i++)
                {
                    entries[next++] = new IndexEntry(slot.Hash, slot.FirstEventNumber + 1 + i, slot.More![i]);
                }
            }

            Array.Sort(entries);
            return entries;
        }
    }

    private struct Slot(ulong hash, long firstEventNumber, long firstPosition)
    {
        public readonly ulong Hash = hash;
        public readonly long FirstEventNumber = firstEventNumber;
        public readonly long FirstPosition = firstPosition;
        public List<long>? More;

        public readonly int Count => 1 + (More?.Count ?? 0);
    }
}
