using System.Diagnostics;
using EventFilter.Blocked;
using EventFilter.Storage;

namespace EventFilter.Journal;

/// <summary>
/// How a filter file's changes reach the disk without ever stalling an add. Adds change only the private mapping and
/// mark their line; a flush appends the marked lines to the journal (or, when that would be larger, writes their
/// blocks straight into the file) and fsyncs; a <see cref="JournalFold"/> rarely writes the journaled blocks into
/// the main file and deletes the journal. Flush, fold and open use it; an add never does.
/// See docs/design.md, section "Changed-line journal".
/// </summary>
internal sealed class ChangeJournal : IDisposable
{
    private readonly MappedFile _file;
    private readonly BloomLines _lines;
    private readonly Guid _fileId;
    private readonly uint _lineCount;
    private readonly AtomicBitmap? _changedLines;
    private readonly BlockWriter? _blocks;
    private readonly JournalFold? _fold;
    private readonly long _foldThresholdBytes;
    private readonly JournalGenerations _generations;
    private readonly Lock _flushGate = new();
    private readonly TimeProvider _time;

    private string _path;
    private long? _committedPosition;
    private bool _retired;

    /// <summary>
    /// A writable <paramref name="file"/> gets the changed-line set <paramref name="changedLines"/>, which its adds mark;
    /// flushes and folds are timed on <paramref name="time"/>.
    /// </summary>
    public ChangeJournal(MappedFile file, BloomLines lines, FilterHeader header, AtomicBitmap? changedLines, long foldThresholdBytes, TimeProvider time)
    {
        _file = file;
        _lines = lines;
        _path = file.Path;
        _fileId = header.FileId;
        _lineCount = header.LineCount;
        _changedLines = changedLines;
        _foldThresholdBytes = foldThresholdBytes;
        _time = time;
        _generations = new JournalGenerations(_fileId);
        if (file.Writable)
        {
            _blocks = new BlockWriter(file, lines);
            _fold = new JournalFold(_blocks, _fileId, time);
        }
    }

    /// <summary>The filter file's name, which its journals and checkpoint go by; a resize swap changes it.</summary>
    public string Path => _path;

    /// <summary>What open found in the journal: changes flushed but not folded into the main file when it was last closed.</summary>
    public JournalSummary Pending { get; private set; } = JournalSummary.None;

    /// <summary>The last checkpoint position committed to the journal, by this process or found on open; null when none.</summary>
    public long? CommittedPosition => _committedPosition;

    /// <summary>The lines changed since the last flush; a repair marks its lines here, so the next fold writes them.</summary>
    public AtomicBitmap? ChangedLines => _changedLines;

    /// <inheritdoc cref="BlockWriter.RunWritten"/>
    public Action<long>? BlocksWritten
    {
        set => _blocks!.RunWritten = value;
    }

    /// <inheritdoc cref="JournalFold.Folded"/>
    public Action<FlushResult>? Folded
    {
        set => _fold!.Folded = value;
    }

    /// <summary>Writes every journaled change into the main file, then deletes the journal (docs/design.md, "Changed-line journal").</summary>
    public FlushResult Fold()
    {
        lock (_flushGate)
        {
            _fold!.Wait(_path, rethrow: true);
            FlushResult result = _fold.FoldNow(_path, _changedLines!, _lines, _committedPosition);
            _generations.Rotate();
            return result;
        }
    }

    /// <summary>
    /// Makes every add that completed before this call durable; with a <paramref name="position"/>, the commit record
    /// that ends it carries that checkpoint position (docs/design.md, "Durability protocol").
    /// </summary>
    public FlushResult Flush(long? position)
    {
        lock (_flushGate)
        {
            if (_retired)
            {
                throw new InvalidOperationException($"Filter file '{_path}' was replaced by a resize; it takes no more flushes.");
            }

            if (_fold!.TakeFailure() is { } failure)
            {
                // Surfaced once, to the caller who can act on it; the journal it would have deleted is still there.
                throw new IOException($"The background fold of '{_path}' failed; its journal is kept and the fold will be retried.", failure);
            }

            try
            {
                return FlushLocked(position);
            }
            catch
            {
                // The lines this flush took out are in an unknown state on disk: mark every line changed, so the next
                // flush writes the whole file, and cut the journal back to what was synced. Nothing was committed.
                _changedLines!.AddAll();
                _generations.RewindToSynced();
                throw;
            }
        }
    }

    /// <summary>
    /// About what a flush would write now: the changed lines' journal records, or their blocks when those are fewer
    /// bytes (the choice <see cref="Flush"/> makes). Reads the changed-line marks without taking them.
    /// </summary>
    public long PendingBytes()
    {
        (long lines, long blocks) = _changedLines!.CountWithGroups(groupShift: 6, groupOffset: 1);
        return Math.Min(lines * JournalRecord.Length, blocks * BlockWriter.BlockSize);
    }

    private FlushResult FlushLocked(long? position)
    {
        long started = _time.GetTimestamp();
        (long lines, long blocks) = _changedLines!.CountWithGroups(groupShift: 6, groupOffset: 1);
        long written = 0;
        long records = 0;
        (ulong, long) journalEnd = _generations.End;
        if (lines * JournalRecord.Length > blocks * BlockWriter.BlockSize)
        {
            // Dense changes (a catch-up, a fresh file): the blocks themselves are smaller than their journal.
            var direct = new AtomicBitmap(_blocks!.BlockCount);
            BlockWriter.TakeBlocksOf(_changedLines, direct);

            // An add that found its line's mark already set (and so did not set it again) may still be inside its
            // stripe, its bits not yet visible here: the journal path's copy waits for that stripe, this one for all.
            _lines.WaitForAddsInProgress();

            written += _blocks.WriteAndSync(direct);
        }
        else if (lines > 0)
        {
            records = _generations.AppendLines(_path, _changedLines, _lines, _fold!);
        }

        if (records > 0 || position is not null)
        {
            _generations.Commit(_path, position ?? JournalRecord.NoPosition);
            _committedPosition = position ?? _committedPosition;

            // What the device writes for the append: the whole blocks it touched.
            written += _generations.BlocksTouchedSince(journalEnd);
        }

        if (_generations.BytesSinceRotation >= _foldThresholdBytes && !_fold!.IsRunning)
        {
            // Rotate: the next flush starts a new generation, so the fold can delete this one and all before it.
            _fold.Start(_path, upTo: _generations.Rotate(), _committedPosition);
        }

        return new FlushResult(written, _time.GetElapsedTime(started));
    }

    /// <summary>
    /// Moves the checkpoint back (the host truncated its log): a commit with the lower position, which wins over every
    /// earlier one, and the checkpoint file too, after any fold that could still write a higher one.
    /// </summary>
    public void Rewind(long position)
    {
        lock (_flushGate)
        {
            _fold!.Wait(_path, rethrow: false);
            _generations.Commit(_path, position);
            _committedPosition = position;
            CheckpointFile.Write(CheckpointFile.PathFor(_path), new Checkpoint(position, _fileId));
        }
    }

    /// <summary>Replays the journal into the lines, so lookups answer as the live filter did; writes nothing.</summary>
    public void Replay()
    {
        _generations.ContinueAfter(_path);
        BloomLines lines = _lines;
        Pending = JournalReader.Replay(_path, _fileId, _lineCount, (line, bits) => lines.OrLine(line, bits));
    }

    /// <summary>
    /// On a writable open: replay the journal, then fold it and any repairs into the file. A fold that fails (a full
    /// disk) is not fatal: the journal stays, the changes stay marked, and the next flush or fold tries again.
    /// </summary>
    public void Recover()
    {
        Replay();
        _committedPosition = Pending.Position;
        if (_changedLines!.Count() > 0 || JournalFiles.List(_path).Count > 0)
        {
            try
            {
                Fold();
            }
            catch (IOException)
            {
                _changedLines.AddAll();
            }
        }
    }

    /// <summary>
    /// After a resize swap renamed this file over <paramref name="replaced"/>'s (retired), later journals and
    /// checkpoints go by its name, and so does the writer lock. The journal must be folded first.
    /// </summary>
    public void MovedOver(ChangeJournal replaced)
    {
        lock (_flushGate)
        {
            Debug.Assert(!_generations.IsOpen, "fold before renaming");
            Debug.Assert(replaced._retired, "retire the replaced file first: it gives up its lock");
            _path = replaced._path;
            _generations.ContinueAfter(_path);
            _file.TakeOverWriterLock(replaced._file);
        }
    }

    /// <summary>A resize replaced this file: wait for its fold, so nothing of it writes under the shared name any more.</summary>
    public void Retire()
    {
        lock (_flushGate)
        {
            _fold?.Wait(_path, rethrow: false);
            _retired = true;
        }
    }

    /// <summary>Waits for a running background fold to finish and surfaces its failure.</summary>
    public void WaitForBackgroundFold() => _fold?.Wait(_path, rethrow: true);

    /// <summary>Waits for a background fold, then closes the newest generation.</summary>
    public void Dispose()
    {
        _fold?.Wait(_path, rethrow: false);
        _generations.Dispose();
    }
}
