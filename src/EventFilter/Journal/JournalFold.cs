using EventFilter.Blocked;
using EventFilter.Threading;

namespace EventFilter.Journal;

/// <summary>
/// The fold: writes every 4 KiB block that holds a journaled line from the mapping into the main file, fsyncs it,
/// records the last committed position in the checkpoint file and deletes the folded journal generations. Runs in
/// the background when the journal passes its threshold, or at once when asked. See docs/design.md, section
/// "Changed-line journal".
/// </summary>
internal sealed class JournalFold
{
    private readonly BlockWriter _blocks;
    private readonly Guid _fileId;
    private readonly TimeProvider _time;

    // Blocks whose lines are journaled but not yet in the main file. Swapped out whole when a background fold starts.
    private AtomicBitmap _unfolded;
    private Task _background = Task.CompletedTask;
    private Exception? _failure;

    /// <summary>Folds through <paramref name="blocks"/>, timing each on <paramref name="time"/> (<see cref="Folded"/>).</summary>
    public JournalFold(BlockWriter blocks, Guid fileId, TimeProvider time)
    {
        _blocks = blocks;
        _fileId = fileId;
        _time = time;
        _unfolded = new AtomicBitmap(blocks.BlockCount);
    }

    /// <summary>Told about every fold (bytes written into the main file, and its duration); for telemetry.</summary>
    public Action<FlushResult>? Folded { get; set; }

    public bool IsRunning => !_background.IsCompleted;

    /// <summary>The line is in the journal now: its block goes into the main file at the next fold.</summary>
    public void Journaled(long line) => _unfolded.Add(BlockWriter.BlockOf(line));

    /// <summary>
    /// Folds now, on the caller's thread: the lines still only marked in <paramref name="changedLines"/> are written
    /// with the journaled ones, then every generation up to the newest is deleted.
    /// </summary>
    public FlushResult FoldNow(string path, AtomicBitmap changedLines, BloomLines lines, long? position)
    {
        long started = _time.GetTimestamp();
        long written;
        try
        {
            BlockWriter.TakeBlocksOf(changedLines, _unfolded);
            lines.WaitForAddsInProgress(); // as in a flush's direct path
            written = _blocks.WriteAndSync(_unfolded);
            Finish(path, JournalFiles.NextGeneration(path) - 1, position);
        }
        catch
        {
            // Lines taken out above may be neither journaled nor written: the next flush must write them all.
            changedLines.AddAll();
            _unfolded.AddAll();
            throw;
        }

        var result = new FlushResult(written, _time.GetElapsedTime(started));
        Folded?.Invoke(result);
        return result;
    }

    /// <summary>
    /// Starts folding, on a thread of the batch scheduling class (it must not take a core from the adds), the blocks journaled in generations up to <paramref name="upTo"/>; the
    /// caller has rotated to a new generation, so later lines mark blocks of the next fold.
    /// </summary>
    public void Start(string path, ulong upTo, long? position)
    {
        AtomicBitmap blocks = _unfolded;
        _unfolded = new AtomicBitmap(blocks.Capacity);
        try
        {
            _background = BackgroundThreads.Run("eventfilter fold", () => FoldInBackground(blocks, path, upTo, position));
        }
        catch (OutOfMemoryException e)
        {
            // No thread (the runtime reports a thread it cannot start, out of memory or of descriptors, so): the blocks
            // taken above would be folded by no one, and the next fold deletes their journal. Every block is marked for
            // the next fold instead, and the flush fails as an I/O failure does, to be retried.
            _unfolded.AddAll();
            throw new IOException($"The background fold of '{path}' could not start its thread; the next flush folds every block.", e);
        }
    }

    /// <summary>Waits for a background fold to finish; with <paramref name="rethrow"/>, surfaces its failure.</summary>
    public void Wait(string path, bool rethrow)
    {
        try
        {
            _background.Wait();
        }
        catch (AggregateException) when (!rethrow)
        {
        }

        if (rethrow && TakeFailure() is { } failure)
        {
            throw new IOException($"The background fold of '{path}' failed; its journal is kept.", failure);
        }
    }

    /// <summary>Why the last background fold failed, once: the journal it would have deleted is still there.</summary>
    public Exception? TakeFailure()
    {
        Exception? failure = _failure;
        _failure = null;
        return failure;
    }

    private void FoldInBackground(AtomicBitmap blocks, string path, ulong upTo, long? position)
    {
        try
        {
            long started = _time.GetTimestamp();
            long written = _blocks.WriteAndSync(blocks);
            Finish(path, upTo, position);
            Folded?.Invoke(new FlushResult(written, _time.GetElapsedTime(started)));
        }
        catch (Exception error)
        {
            // The journal stays, so nothing is lost; but which blocks were written is unknown: fold them all next time.
            for (long block = 0; block < blocks.Capacity; block++)
            {
                _unfolded.Add(block);
            }

            _failure = error;
        }
    }

    /// <summary>The main file now holds every journaled line up to <paramref name="upTo"/>: record the position, then drop those journals.</summary>
    private void Finish(string path, ulong upTo, long? position)
    {
        if (position is { } covered)
        {
            CheckpointFile.Write(CheckpointFile.PathFor(path), new Checkpoint(covered, _fileId));
        }

        JournalFiles.Delete(path, upTo);
    }
}
