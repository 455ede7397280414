using System.Runtime.CompilerServices;

namespace EventFilter.Durability;

/// <summary>
/// The host's side of the host contract as the filter checks it at run time (docs/design.md, "Host contract"): what
/// a checkpoint may claim, and which host calls broke a rule. Owns the positions below; every write happens under the
/// filter's checkpoint lock, and adds only read <see cref="_vouchedTo"/> and <see cref="_readEnd"/>.
/// </summary>
internal sealed class HostContract(string path, FilterObserver observer, bool following = false)
{
    // Completed and replaced when _readEnd moves; created only when someone waits, so a read that nobody awaits allocates nothing.
    private TaskCompletionSource? _readMoved;

    // Everything before it was read from the log into the serving file by a catch-up (or a build's catch-up).
    private long _readEnd;

    // The highest position a checkpoint claimed on the strength of the host's adds alone (above _readEnd).
    private long _vouchedTo;

    // The last position the host checkpointed at; only a truncation may lower it.
    private long _hostPosition;

    /// <summary>
    /// True when an add's record was already claimed by a checkpoint that had not read it: the claim was made before
    /// the name was in (<see cref="ReportLateAdd"/> says why). A record at or below <see cref="_readEnd"/> was read by
    /// a catch-up, so its add is only a repeat.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool IsLate(long recordEnd) => recordEnd <= Volatile.Read(ref _vouchedTo) && recordEnd > Volatile.Read(ref _readEnd);

    /// <summary>A catch-up or the follower has read the log into the serving file up to <paramref name="position"/>.</summary>
    public void Read(long position)
    {
        Volatile.Write(ref _readEnd, position);
        Interlocked.Exchange(ref _readMoved, null)?.TrySetResult();
    }

    /// <summary>Every record before it was read from the log into the serving file.</summary>
    public long ReadEnd => Volatile.Read(ref _readEnd);

    /// <summary>Completes once <see cref="ReadEnd"/> is at or past <paramref name="position"/>.</summary>
    public async Task WaitForReadAsync(long position, CancellationToken cancellationToken)
    {
        while (true)
        {
            // The signal before the position: a Read between the two completes the signal taken.
            TaskCompletionSource moved = Volatile.Read(ref _readMoved) ?? Arm();
            if (ReadEnd >= position)
            {
                return;
            }

            await moved.Task.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    // Installs a signal for the next Read, or takes the one another waiter installed first. Kept in a local: a Read may
    // take it out of the field at once, and then it is already complete, which the caller's loop sees.
    private TaskCompletionSource Arm()
    {
        var fresh = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        return Interlocked.CompareExchange(ref _readMoved, fresh, null) ?? fresh;
    }

    /// <summary>
    /// The position a ready filter may claim for the host's <paramref name="position"/>: no more than its adds reached
    /// (<paramref name="highestAddedEnd"/>) or a catch-up read. A host that adds after its fsync, in log order, is
    /// thereby never claimed ahead of its adds, even when it checkpoints at the log's durable end.
    /// </summary>
    public long Claim(long position, long highestAddedEnd)
    {
        // A following filter shares its log with other processes: its own adds say nothing of theirs, so only what the
        // follower has read may be claimed (docs/design.md, "Following the log").
        long covered = following ? Volatile.Read(ref _readEnd) : Math.Max(Volatile.Read(ref _readEnd), highestAddedEnd);
        long claim = Math.Min(position, covered);
        if (claim > _vouchedTo)
        {
            Volatile.Write(ref _vouchedTo, claim);
        }

        return claim;
    }

    /// <summary>
    /// Notes the host's checkpoint position; true when it is below the previous one with no truncation in between (the
    /// log went back and the filter was not told), which is reported and must be treated as a truncation.
    /// </summary>
    public bool MovedBack(long position)
    {
        long previous = _hostPosition;
        _hostPosition = position;
        if (position >= previous)
        {
            return false;
        }

        observer.HostContractViolated(path, HostContractViolation.TruncationNotReported,
            $"Checkpoint({position}) came after Checkpoint({previous}) with no TruncateTo in between: when the log is cut, call TruncateTo first. Treated as a truncation to {position}.");
        return true;
    }

    /// <summary>The log was cut at <paramref name="position"/>: nothing past it is read, vouched for or checkpointed.</summary>
    public void Truncated(long position)
    {
        Volatile.Write(ref _readEnd, Math.Min(_readEnd, position)); // waiters wait on: what they wait for is not read yet
        Volatile.Write(ref _vouchedTo, Math.Min(_vouchedTo, position));
        _hostPosition = Math.Min(_hostPosition, position);
    }

    /// <summary>An add after Dispose: the host did not stop appending first. Its record lies past the last checkpoint unless that one came too early, which <see cref="IsLate"/> reports.</summary>
    public void AddAfterDispose(long recordEnd) =>
        observer.HostContractViolated(path, HostContractViolation.AddAfterDispose,
            $"Add for a record ending at {recordEnd} came after Dispose: stop appending before the filter's final checkpoint and Dispose.");

    /// <summary>
    /// Reports a late add. When the log's durable end is below the claim, the log was cut without the filter being told
    /// and this is a new record in the cut range: returns the end to truncate to. Otherwise the host checkpointed
    /// before adding: returns null.
    /// </summary>
    public long? ReportLateAdd(long recordEnd, IStreamNameLog log)
    {
        // The claim first, then the end. A claim is never past the position it was made at, which a host takes from the
        // end it read, and an end that only grows is then at or past the claim when read afterwards: below it only if
        // the log went back. Read the other way round, a checkpoint on another thread (adds take no lock) could raise
        // the claim between the two reads past an end that was true when read, and a late add would pass for a cut log.
        long vouchedTo = Volatile.Read(ref _vouchedTo);
        long logEnd = log.EndPosition;
        if (logEnd < vouchedTo)
        {
            observer.HostContractViolated(path, HostContractViolation.TruncationNotReported,
                $"Add for a record ending at {recordEnd} came while the log's durable end ({logEnd}) is below the position a checkpoint claimed ({vouchedTo}): the log was cut and the filter was not told. Call TruncateTo when the log is cut, before adding records past the cut. Treated as a truncation to {logEnd}.");
            return logEnd;
        }

        observer.HostContractViolated(path, HostContractViolation.LateAdd,
            $"Add for a record ending at {recordEnd} came after a checkpoint had claimed the log up to {vouchedTo}: checkpoint only at a position every add has reached (adds made after the fsync must come in log order, or register a checkpoint position source).");
        return null;
    }
}
