using System.Collections.Concurrent;

namespace EventFilter.Specification.MutationTests;

/// <summary>
/// One host directory's log, shared by every process of <see cref="InMemoryHost"/> started over it (the kit's several
/// processes over one log): the records, and which process appended each, for the mutations that read only their
/// own. A process takes the lowest slot no running process holds, so a process restarted after a kill is its old self
/// again, and one process started over and over (every single-process test) is always slot 0.
/// </summary>
internal sealed class SharedInMemoryLog
{
    private readonly Lock _slots = new();
    private readonly List<bool> _taken = [];
    private readonly ConcurrentDictionary<long, int> _appendedBy = new();

    public InMemoryStreamLog Records { get; } = new();

    public int TakeSlot()
    {
        lock (_slots)
        {
            int free = _taken.IndexOf(false);
            if (free < 0)
            {
                _taken.Add(true);
                return _taken.Count - 1;
            }

            _taken[free] = true;
            return free;
        }
    }

    public void FreeSlot(int slot)
    {
        lock (_slots)
        {
            _taken[slot] = false;
        }
    }

    /// <summary>The process in <paramref name="slot"/> appended the record ending at <paramref name="recordEnd"/> (a record cut away and appended again changes hands).</summary>
    public void Appended(int slot, long recordEnd) => _appendedBy[recordEnd] = slot;

    public bool AppendedBy(int slot, long recordEnd) => _appendedBy.TryGetValue(recordEnd, out int by) && by == slot;
}
