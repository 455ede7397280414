namespace EventFilter.Durability;

/// <summary>
/// When a catch-up checkpoints before its end (docs/design.md, "Open sequence", step 6). A catch-up changes nearly
/// every line between two checkpoints, so each one writes about the whole file and fsyncs it: on a fixed record
/// count they took a third of a 256 MiB catch-up's time. A checkpoint is due when both:
/// <list type="bullet">
/// <item>at least <see cref="StreamExistenceFilterOptions.CatchUpCheckpointRecords"/> records were added since the
/// last one (the option is the least spacing, as before);</item>
/// <item>the catch-up has worked at least <see cref="WorkPerCheckpointTime"/> times as long since the last checkpoint
/// ended as this one may take: the whole file (the most a checkpoint writes), at the time per byte the last one took.
/// The bound, not a count of the changed lines: counting them costs milliseconds, and would be paid after every batch.</item>
/// </list>
/// So checkpoints cost at most 1 / (1 + <see cref="WorkPerCheckpointTime"/>) of the catch-up's time, and a crash loses
/// at most that many checkpoints' time of work (or the records of the option, whichever is more), plus a batch.
/// Before any checkpoint has been timed the second condition holds; a large catch-up (first batch of at least
/// <see cref="Blocked.RegionAdder.ParallelMinimum"/> names, expecting more than the option's records) checkpoints
/// after its first batch, which changed a small part of the file and so is cheap, to time the device.
/// Time comes from the options' <see cref="TimeProvider"/>: under a clock that does not move, the record count alone
/// decides. So it does for a file smaller than <see cref="StreamExistenceFilterOptions.CatchUpTimedCheckpointBytes"/>
/// (64 MiB): its checkpoints write at most that, a fraction of a second, and its catch-up checkpoints as configured.
/// </summary>
internal sealed class CatchUpCheckpoints
{
    /// <summary>Time of catch-up work per unit of checkpoint time: checkpoints take at most 1/20 (5%) of a catch-up.</summary>
    public const int WorkPerCheckpointTime = 19;

    private readonly long _records;
    private readonly TimeProvider _time;
    private readonly bool _timed;
    private long _since;
    private long _lastEnded;
    private double _secondsPerByte;
    private bool _first;

    /// <param name="records">The least records between two checkpoints.</param>
    /// <param name="time">The clock the catch-up's work and its checkpoints are timed on.</param>
    /// <param name="timed">False: the record count alone decides (a small file).</param>
    public CatchUpCheckpoints(long records, TimeProvider time, bool timed = true)
    {
        _records = records;
        _timed = timed;
        _first = timed;
        _time = time;
        _lastEnded = time.GetTimestamp();
    }

    /// <summary>Records added since the last checkpoint.</summary>
    public long Since => _since;

    /// <summary>
    /// After a batch of <paramref name="count"/> records: whether to checkpoint now. <paramref name="expected"/> is the
    /// catch-up's estimate of all its records; <paramref name="fileBytes"/> the file's length.
    /// </summary>
    public bool Added(int count, long expected, long fileBytes)
    {
        _since += count;
        bool first = _first;
        _first = false;
        if (first && _since < _records)
        {
            return count >= Blocked.RegionAdder.ParallelMinimum && expected > _records;
        }

        if (_since < _records || !_timed)
        {
            return _since >= _records;
        }

        double expectedSeconds = fileBytes * _secondsPerByte;
        return _time.GetElapsedTime(_lastEnded).TotalSeconds >= WorkPerCheckpointTime * expectedSeconds;
    }

    /// <summary>
    /// Takes a checkpoint with <paramref name="checkpoint"/>, timing it against <paramref name="bytes"/> (what it was
    /// expected to write, counted once here); returns what <paramref name="checkpoint"/> returned (false: not taken, nothing changes).
    /// </summary>
    public bool Take(Func<bool> checkpoint, long bytes)
    {
        long started = _time.GetTimestamp();
        if (!checkpoint())
        {
            return false;
        }

        _lastEnded = _time.GetTimestamp();
        if (bytes > 0)
        {
            _secondsPerByte = _time.GetElapsedTime(started, _lastEnded).TotalSeconds / bytes;
        }

        _since = 0;
        return true;
    }
}
