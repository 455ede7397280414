using EventLog.Errors;
using EventLog.Index;

namespace EventLog.Writing;

/// <summary>One group commit: decide, write, fsync, publish, complete; or, when the write or fsync fails, cut back.</summary>
internal sealed partial class GroupCommitWriter
{
    private async Task CommitAsync()
    {
        long commitPosition;
        try
        {
            commitPosition = Write();
        }
        catch (Exception failure)
        {
            CutBack(failure);
            throw;
        }

        if (commitPosition > 0)
        {
            Publish(commitPosition);
        }

        foreach (PendingAppend append in _batch)
        {
            append.Complete(commitPosition);
        }

        if (_index.Active.Count >= _memTableEntries)
        {
            await _maintenance.EnqueueAsync(_index.SealActive()).ConfigureAwait(false);
        }
    }

    // Decides each append, encodes the winners, writes and fsyncs them; returns the new durable end (0: nothing written).
    private long Write()
    {
        _batchVersions.Clear();
        long createdTicks = _time.GetUtcNow().UtcTicks;
        foreach (PendingAppend append in _batch)
        {
            if (append.CancellationToken.IsCancellationRequested)
            {
                append.Cancel(); // not written yet, so cancelling changes nothing
                continue;
            }

            long current = _batchVersions.TryGetValue(append.StreamName, out long pending)
                ? pending
                : _versions.ForWriter(append.StreamName, append.Utf8Name, append.Hash, _filter);
            if (!append.Expected.IsSatisfiedBy(current))
            {
                append.Rejection = new WrongExpectedVersionException(append.StreamName, append.Expected, current);
                continue;
            }

            // Into the filter before it is durable, as the host contract allows: a checkpoint only ever claims the
            // durable end, which this record is not past until the fsync below (or a roll inside the Add after it).
            _filter?.Add(append.Utf8Name, _buffer.EndAfter(append));
            _buffer.Add(append, current + 1, createdTicks);
            _batchVersions[append.StreamName] = append.LastEventNumber;
        }

        return _buffer.IsEmpty ? 0 : _buffer.Commit();
    }

    // The write or fsync failed, and no caller has heard anything yet. Records of this commit may be in the file (a
    // short write, a write whose fsync failed, the part fsynced before a roll): recovery would keep each whole append
    // of them. So the log is cut back to the last acknowledged end first, and only then is this commit refused: a
    // refusal is true, and the engine writes nothing more (no later commit can make these records durable). If the cut
    // fails too, the appends that were handed to the disk are answered "outcome unknown" instead (RunAsync).
    private void CutBack(Exception failure)
    {
        long end;
        try
        {
            end = _buffer.CutBack();
        }
        catch (Exception cutFailed)
        {
            // Whatever stopped the cut, what is on the disk past the acknowledged end is unknown now.
            _outcomeUnknown = OutcomeUnknown(failure, cutFailed);
            return;
        }

        // Host contract rule 4: the names of the cut records were added with record ends past the cut.
        _filter?.TruncateTo(end);
    }

    // Durable now: make it visible to lookups and reads before any caller hears it succeeded.
    private void Publish(long commitPosition)
    {
        MemTable active = _index.Active;
        foreach (PendingAppend append in _batch)
        {
            if (append.Rejection is not null || append.Completion.IsCompleted)
            {
                continue;
            }

            for (int i = 0; i < append.Events.Length; i++)
            {
                active.Add(append.StreamName, append.Hash, append.FirstEventNumber + i, append.Positions[i]);
            }

            Interlocked.Increment(ref _appends);
        }

        active.CoverTo(commitPosition);
        foreach ((string stream, long last) in _batchVersions)
        {
            _versions.Committed(stream, last);
        }

        Interlocked.Increment(ref _commits);
    }
}
