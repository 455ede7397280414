namespace EventFilter.Journal;

/// <summary>
/// Replays a filter's journal generations in order. Reading stops at the first record that fails its checksum, names
/// a line beyond the file, or breaks the commit count: nothing from there on is applied, in that file or a later one,
/// and the position is the last one committed before it. Files of another filter (a stale id) are skipped.
/// See docs/design.md, section "Changed-line journal".
/// </summary>
internal static class JournalReader
{
    private const int RecordsPerRead = 16_384;

    /// <summary>Receives each changed line, in journal order.</summary>
    public delegate void LineVisitor(uint lineIndex, ReadOnlySpan<byte> bits);

    public static JournalSummary Replay(string filterPath, Guid filterFileId, uint lineCount, LineVisitor apply)
    {
        var state = new ReplayState();
        IReadOnlyList<(ulong Generation, string Path)> files = JournalFiles.List(filterPath);
        for (int i = 0; i < files.Count; i++)
        {
            bool last = i == files.Count - 1;
            bool foreign;
            try
            {
                state.Damage = ReplayFile(files[i].Path, files[i].Generation, last, filterFileId, lineCount, apply, state, out foreign);
            }
            catch (FileNotFoundException)
            {
                // A reading tool beside a live writer: a fold deleted this generation after it was listed, so the
                // filter file holds its lines now.
                continue;
            }

            if (!foreign)
            {
                state.Files++;
            }

            if (state.Damage is not null)
            {
                break;
            }
        }

        return new JournalSummary(state.Files, state.LineRecords, state.Commits, state.Bytes, state.Position, state.Damage);
    }

    private static string? ReplayFile(string path, ulong generation, bool last, Guid filterFileId, uint lineCount, LineVisitor apply, ReplayState state, out bool foreign)
    {
        foreign = false;
        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, bufferSize: 0);
        byte[] buffer = new byte[RecordsPerRead * JournalRecord.Length];
        int headerRead = stream.ReadAtLeast(buffer.AsSpan(0, JournalHeader.Length), JournalHeader.Length, throwOnEndOfStream: false);
        JournalHeader? header = JournalHeader.TryRead(buffer.AsSpan(0, headerRead), out uint salt, out string? problem);
        if (header is null)
        {
            // A crash while a new generation was being created leaves it short and empty: nothing was ever committed in it.
            return last && stream.Length < JournalHeader.Length ? null : $"journal '{path}': {problem}";
        }

        if (header.Value.FilterFileId != filterFileId)
        {
            foreign = true;
            return null;
        }

        if (header.Value.Generation != generation)
        {
            return $"journal '{path}': its header says generation {header.Value.Generation}";
        }

        state.Bytes += JournalHeader.Length;
        long recordsInFile = 0;
        while (true)
        {
            int read = stream.ReadAtLeast(buffer, buffer.Length, throwOnEndOfStream: false);
            int whole = read / JournalRecord.Length;
            for (int i = 0; i < whole; i++)
            {
                ReadOnlySpan<byte> record = buffer.AsSpan(i * JournalRecord.Length, JournalRecord.Length);
                long offset = JournalHeader.Length + (recordsInFile * JournalRecord.Length);
                if (!JournalRecord.IsSealed(record, salt))
                {
                    return $"journal '{path}': the record at offset {offset} fails its checksum";
                }

                uint line = JournalRecord.LineIndex(record);
                if (line == JournalRecord.CommitMarker)
                {
                    if (JournalRecord.CommitRecordsBefore(record) != recordsInFile)
                    {
                        return $"journal '{path}': the commit at offset {offset} counts {JournalRecord.CommitRecordsBefore(record)} records before it, not {recordsInFile}";
                    }

                    long position = JournalRecord.CommitPosition(record);
                    if (position != JournalRecord.NoPosition)
                    {
                        state.Position = position;
                    }

                    state.Commits++;
                }
                else if (line >= lineCount)
                {
                    return $"journal '{path}': the record at offset {offset} names line {line}, beyond the file's {lineCount} lines";
                }
                else
                {
                    apply(line, JournalRecord.Bits(record));
                    state.LineRecords++;
                }

                recordsInFile++;
                state.Bytes += JournalRecord.Length;
            }

            if (read < buffer.Length)
            {
                // A partial record at the very end of the newest file is an append a crash cut short: never committed.
                // Older generations were complete and fsynced before the next one was created, so there it is damage.
                return last || read % JournalRecord.Length == 0 ? null : $"journal '{path}': it ends {read % JournalRecord.Length} bytes into a record";
            }
        }
    }

    private sealed class ReplayState
    {
        public int Files;
        public long LineRecords;
        public long Commits;
        public long Bytes;
        public long? Position;
        public string? Damage;
    }
}
