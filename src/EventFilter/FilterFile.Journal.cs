using System.Diagnostics;
using EventFilter.Blocked;
using EventFilter.Journal;

namespace EventFilter;

/// <summary>
/// Flush, journal and fold: how changes reach the disk without ever stalling an add. Adds change only the private
/// mapping and mark their line; a flush appends the marked lines to the journal (or, when that would be larger,
/// writes their blocks straight into the file) and fsyncs; a background fold rarely writes the journaled blocks
/// into the main file and deletes the journal. See docs/design.md, section "Changed-line journal".
/// </summary>
public sealed partial class FilterFile
{
    private readonly AtomicBitmap? _changedLines;
    private readonly BlockWriter? _blocks;
    private readonly long _foldThresholdBytes;
    private readonly Lock _flushGate = new();
    private readonly byte[] _records = new byte[RecordsPerAppend * JournalRecord.Length];
    private const int RecordsPerAppend = 1024;

    // Blocks whose lines are journaled but not yet in the main file. Swapped out whole when a fold starts.
    private AtomicBitmap? _unfolded;
    private string _path;
    private JournalWriter? _journal;
    private ulong _nextGeneration = 1;
    private long _journalBytesSinceFold;
    private long? _committedPosition;
    private Task _fold = Task.CompletedTask;
    private Exception? _foldFailure;
    private bool _retired;

    /// <summary>What open found in the journal: changes flushed but not folded into the main file when it was last closed.</summary>
    public JournalSummary PendingJournal { get; private set; } = JournalSummary.None;

    /// <summary>Told the bytes a fold or in-place flush has written so far, after each run of blocks; for crash tests.</summary>
    internal Action<long>? BlocksWritten
    {
        set => _blocks!.RunWritten = value;
    }

    /// <summary>Told about every fold (bytes written into the main file, and its duration); for telemetry.</summary>
    internal Action<FlushResult>? Folded { get; set; }

    /// <summary>
    /// Makes every add that completed before this call durable: appends each changed line to the journal and fsyncs
    /// it. Adds and lookups carry on while it runs, never waiting for it; concurrent flushes run one at a time.
    /// </summary>
    public FlushResult Flush() => Flush(position: null);

    /// <summary>
    /// Writes every journaled change into the main file, fsyncs it, records the last checkpoint position in the
    /// checkpoint file and deletes the journal. Runs in the background by itself when the journal grows past a quarter
    /// of the file; call it to leave a file that needs no journal (before copying it, say).
    /// </summary>
    public FlushResult FoldJournal()
    {
        ThrowIfReadOnly();
        lock (_flushGate)
        {
            WaitForBackgroundFold(rethrow: true);
            long started = Stopwatch.GetTimestamp();
            long written;
            try
            {
                var collector = new BlockMarker(_unfolded!);
                _changedLines!.Take(ref collector);
                _lines.WaitForAddsInProgress(); // as in FlushLocked's direct path
                written = _blocks!.WriteAndSync(_unfolded!);
                FinishFold(JournalFiles.NextGeneration(_path) - 1, _committedPosition);
            }
            catch
            {
                // Lines taken out above may be neither journaled nor written: the next flush must write them all.
                _changedLines!.AddAll();
                _unfolded!.AddAll();
                throw;
            }

            _journal?.Dispose();
            _journal = null;
            _journalBytesSinceFold = 0;
            var result = new FlushResult(written, Stopwatch.GetElapsedTime(started));
            Folded?.Invoke(result);
            return result;
        }
    }

    /// <summary>
    /// The flush behind <see cref="Flush()"/> and checkpoints: with a <paramref name="position"/>, the commit record
    /// that ends it carries that checkpoint position (docs/design.md, "Durability protocol").
    /// </summary>
    internal FlushResult Flush(long? position)
    {
        ThrowIfReadOnly();
        lock (_flushGate)
        {
            if (_retired)
            {
                throw new InvalidOperationException($"Filter file '{_path}' was replaced by a resize; it takes no more flushes.");
            }

            if (_foldFailure is { } failure)
            {
                // Surfaced once, to the caller who can act on it; the journal it would have deleted is still there.
                _foldFailure = null;
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
                if (_journal is not null && !_journal.TryRewindToSynced())
                {
                    _journal.Dispose();
                    _journal = null;
                }

                throw;
            }
        }
    }

    private FlushResult FlushLocked(long? position)
    {
        long started = Stopwatch.GetTimestamp();
        (long lines, long blocks) = _changedLines!.CountWithGroups(groupShift: 6, groupOffset: 1);
        long written = 0;
        long records = 0;
        ulong journalBefore = _journal?.Generation ?? 0;
        long journalStart = _journal?.Length ?? 0;
        if (lines * JournalRecord.Length > blocks * BlockWriter.BlockSize)
        {
            // Dense changes (a catch-up, a fresh file): the blocks themselves are smaller than their journal.
            var direct = new AtomicBitmap(_blocks!.BlockCount);
            var marker = new BlockMarker(direct);
            _changedLines.Take(ref marker);

            // An add that found its line's mark already set (and so did not set it again) may still be inside its
            // stripe, its bits not yet visible here: the journal path's copy waits for that stripe, this one for all.
            _lines.WaitForAddsInProgress();

            written += _blocks.WriteAndSync(direct);
        }
        else if (lines > 0)
        {
            var appender = new RecordAppender(this);
            _changedLines.Take(ref appender);
            appender.Finish();
            records = appender.Records;
        }

        if (records > 0 || position is not null)
        {
            Commit(position ?? JournalRecord.NoPosition);
            _committedPosition = position ?? _committedPosition;

            // What the device writes for the append: the whole blocks it touched (a new file's header block too).
            written += JournalWriter.BlockSpan(_journal!.Generation == journalBefore ? journalStart : 0, _journal.Length);
        }

        if (_journalBytesSinceFold >= _foldThresholdBytes && _fold.IsCompleted)
        {
            StartBackgroundFold();
        }

        return new FlushResult(written, Stopwatch.GetElapsedTime(started));
    }

    /// <summary>
    /// After a resize swap renamed this file over <paramref name="replaced"/> (retired), later journals and checkpoints
    /// go by its name, and so does the writer lock. The journal must be folded first.
    /// </summary>
    internal void MovedOver(FilterFile replaced)
    {
        lock (_flushGate)
        {
            Debug.Assert(_journal is null, "fold before renaming");
            Debug.Assert(replaced._retired, "retire the replaced file first: it gives up its lock");
            _path = replaced._path;
            _nextGeneration = JournalFiles.NextGeneration(_path);
            _file.TakeOverWriterLock(replaced._file);
        }
    }

    /// <summary>A resize replaced this file: wait for its fold, so nothing of it writes under the shared name any more.</summary>
    internal void Retire()
    {
        lock (_flushGate)
        {
            WaitForBackgroundFold(rethrow: false);
            _retired = true;
        }
    }

    /// <summary>
    /// On a writable open: replay the journal, then fold it and any repairs into the file. A fold that fails (a full
    /// disk) is not fatal: the journal stays, the changes stay marked, and the next flush or fold tries again.
    /// </summary>
    private void Recover()
    {
        ReplayJournal();
        _committedPosition = PendingJournal.Position;
        if (_changedLines!.Count() > 0 || JournalFiles.List(_path).Count > 0)
        {
            try
            {
                FoldJournal();
            }
            catch (IOException)
            {
                _changedLines.AddAll();
            }
        }
    }

    /// <summary>The last checkpoint position committed to the journal, by this process or found on open; null when none.</summary>
    internal long? CommittedPosition => _committedPosition;

    private void ReplayJournal()
    {
        _nextGeneration = JournalFiles.NextGeneration(_path);
        BloomLines lines = _lines;
        PendingJournal = JournalReader.Replay(_path, Header.FileId, LineCount, (line, bits) => lines.OrLine(line, bits));
    }

    /// <summary>Appends a commit record and fsyncs the journal: everything appended before it is now durable.</summary>
    private void Commit(long position)
    {
        JournalWriter journal = OpenJournal();
        Span<byte> record = stackalloc byte[JournalRecord.Length];
        JournalRecord.WriteCommit(record, journal.Salt, position, journal.Records);
        journal.Append(record, 1);
        journal.Sync();
        _journalBytesSinceFold += JournalRecord.Length;
    }

    /// <summary>
    /// Moves the checkpoint back (the host truncated its log): a commit with the lower position, which wins over every
    /// earlier one, and the checkpoint file too, after any fold that could still write a higher one.
    /// </summary>
    internal void Rewind(long position)
    {
        ThrowIfReadOnly();
        lock (_flushGate)
        {
            WaitForBackgroundFold(rethrow: false);
            Commit(position);
            _committedPosition = position;
            CheckpointFile.Write(CheckpointFile.PathFor(_path), new Checkpoint(position, Header.FileId));
        }
    }

    private JournalWriter OpenJournal() => _journal ??= JournalWriter.Create(_path, _nextGeneration++, Header.FileId);

    private void StartBackgroundFold()
    {
        // Rotate: the next flush starts a new generation, so the fold can delete this one and all before it.
        ulong upTo = _journal!.Generation;
        _journal.Dispose();
        _journal = null;
        AtomicBitmap blocks = _unfolded!;
        _unfolded = new AtomicBitmap(blocks.Capacity);
        long? position = _committedPosition;
        _journalBytesSinceFold = 0;
        _fold = Task.Run(() => FoldInBackground(blocks, upTo, position));
    }

    private void FoldInBackground(AtomicBitmap blocks, ulong upTo, long? position)
    {
        try
        {
            long started = Stopwatch.GetTimestamp();
            long written = _blocks!.WriteAndSync(blocks);
            FinishFold(upTo, position);
            Folded?.Invoke(new FlushResult(written, Stopwatch.GetElapsedTime(started)));
        }
        catch (Exception error)
        {
            // The journal stays, so nothing is lost; but which blocks were written is unknown: fold them all next time.
            for (long block = 0; block < blocks.Capacity; block++)
            {
                _unfolded!.Add(block);
            }

            _foldFailure = error;
        }
    }

    /// <summary>The main file now holds every journaled line up to <paramref name="upTo"/>: record the position, then drop those journals.</summary>
    private void FinishFold(ulong upTo, long? position)
    {
        if (position is { } covered)
        {
            CheckpointFile.Write(CheckpointFile.PathFor(_path), new Checkpoint(covered, Header.FileId));
        }

        JournalFiles.Delete(_path, upTo);
    }

    /// <summary>Waits for a running background fold to finish (benchmarks count its bytes).</summary>
    internal void WaitForBackgroundFold() => WaitForBackgroundFold(rethrow: true);

    private void WaitForBackgroundFold(bool rethrow)
    {
        try
        {
            _fold.Wait();
        }
        catch (AggregateException) when (!rethrow)
        {
        }

        if (rethrow && _foldFailure is { } failure)
        {
            _foldFailure = null;
            throw new IOException($"The background fold of '{_path}' failed; its journal is kept.", failure);
        }
    }

    /// <summary>Turns changed lines into the blocks that hold them.</summary>
    private readonly struct BlockMarker(AtomicBitmap blocks) : AtomicBitmap.IMemberVisitor
    {
        public void Visit(long line) => blocks.Add(BlockWriter.BlockOf(line));
    }

    /// <summary>Copies each changed line into a journal record, appending a buffer's worth at a time.</summary>
    private struct RecordAppender(FilterFile filter) : AtomicBitmap.IMemberVisitor
    {
        private int _buffered;

        public long Records { get; private set; }

        public void Visit(long line)
        {
            JournalWriter journal = filter.OpenJournal();
            Span<byte> record = filter._records.AsSpan(_buffered * JournalRecord.Length, JournalRecord.Length);
            Span<byte> copy = stackalloc byte[FilterGeometry.BitBytesPerLine];
            filter._lines.CopyBitsAfterAdds((uint)line, copy);
            JournalRecord.WriteLine(record, journal.Salt, (uint)line, copy);
            filter._unfolded!.Add(BlockWriter.BlockOf(line));
            Records++;
            if (++_buffered == RecordsPerAppend)
            {
                AppendBuffered();
            }
        }

        public void Finish() => AppendBuffered();

        private void AppendBuffered()
        {
            if (_buffered > 0)
            {
                filter._journal!.Append(filter._records.AsSpan(0, _buffered * JournalRecord.Length), _buffered);
                filter._journalBytesSinceFold += (long)_buffered * JournalRecord.Length;
                _buffered = 0;
            }
        }
    }
}
