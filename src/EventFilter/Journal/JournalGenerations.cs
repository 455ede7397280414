using EventFilter.Blocked;
using EventFilter.Format;

namespace EventFilter.Journal;

/// <summary>
/// The journal's generations as a flush appends to them: the newest one open for appending (created on the first
/// append after a rotation), its line and commit records, and the bytes appended since the last fold. The caller
/// holds the flush gate. See docs/file-format.md, section "Journal files".
/// </summary>
internal sealed class JournalGenerations(Guid fileId) : IDisposable
{
    private const int RecordsPerAppend = 1024;

    private readonly byte[] _records = new byte[RecordsPerAppend * JournalRecord.Length];
    private JournalWriter? _writer;
    private ulong _next = 1;

    /// <summary>Bytes appended since the last rotation: what the next fold would have to fold.</summary>
    public long BytesSinceRotation { get; private set; }

    /// <summary>True while a generation is open for appending.</summary>
    public bool IsOpen => _writer is not null;

    /// <summary>Where the newest generation ends now, to measure what an append adds to it (<see cref="BlocksTouchedSince"/>).</summary>
    public (ulong Generation, long Length) End => (_writer?.Generation ?? 0, _writer?.Length ?? 0);

    /// <summary>The journal at <paramref name="filterPath"/> was read or renamed: new generations follow its newest.</summary>
    public void ContinueAfter(string filterPath) => _next = JournalFiles.NextGeneration(filterPath);

    /// <summary>Takes every line out of <paramref name="changedLines"/>, appends a line record for each, and tells <paramref name="fold"/> it is journaled.</summary>
    public long AppendLines(string filterPath, AtomicBitmap changedLines, BloomLines lines, JournalFold fold)
    {
        var appender = new RecordAppender(this, filterPath, lines, fold);
        changedLines.Take(ref appender);
        appender.Finish();
        return appender.Records;
    }

    /// <summary>Appends a commit record and fsyncs the journal: everything appended before it is now durable.</summary>
    public void Commit(string filterPath, long position)
    {
        JournalWriter journal = OpenWriter(filterPath);
        Span<byte> record = stackalloc byte[JournalRecord.Length];
        JournalRecord.WriteCommit(record, journal.Salt, position, journal.Records);
        journal.Append(record, 1);
        journal.Sync();
        BytesSinceRotation += JournalRecord.Length;
    }

    /// <summary>Bytes of the device blocks the appends since <paramref name="end"/> touched (a new generation's header block too).</summary>
    public long BlocksTouchedSince((ulong Generation, long Length) end) =>
        JournalWriter.BlockSpan(_writer!.Generation == end.Generation ? end.Length : 0, _writer.Length);

    /// <summary>Closes the newest generation, so the next append starts a new one; returns the closed one's number.</summary>
    public ulong Rotate()
    {
        ulong closed = _writer?.Generation ?? 0;
        _writer?.Dispose();
        _writer = null;
        BytesSinceRotation = 0;
        return closed;
    }

    /// <summary>
    /// After a failed append or fsync: cut the newest generation back to what was synced, so the next commit does not
    /// sit behind a half-written record; if even that fails, the next append starts a new generation.
    /// </summary>
    public void RewindToSynced()
    {
        if (_writer is not null && !_writer.TryRewindToSynced())
        {
            _writer.Dispose();
            _writer = null;
        }
    }

    public void Dispose() => _writer?.Dispose();

    private JournalWriter OpenWriter(string filterPath) => _writer ??= JournalWriter.Create(filterPath, _next++, fileId);

    /// <summary>Copies each changed line into a journal record, appending a buffer's worth at a time.</summary>
    private struct RecordAppender(JournalGenerations generations, string filterPath, BloomLines lines, JournalFold fold) : AtomicBitmap.IMemberVisitor
    {
        private int _buffered;

        public long Records { get; private set; }

        public void Visit(long line)
        {
            JournalWriter writer = generations.OpenWriter(filterPath);
            Span<byte> record = generations._records.AsSpan(_buffered * JournalRecord.Length, JournalRecord.Length);
            Span<byte> copy = stackalloc byte[FilterGeometry.BitBytesPerLine];
            lines.CopyBitsAfterAdds((uint)line, copy);
            JournalRecord.WriteLine(record, writer.Salt, (uint)line, copy);
            fold.Journaled(line);
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
                generations._writer!.Append(generations._records.AsSpan(0, _buffered * JournalRecord.Length), _buffered);
                generations.BytesSinceRotation += (long)_buffered * JournalRecord.Length;
                _buffered = 0;
            }
        }
    }
}
