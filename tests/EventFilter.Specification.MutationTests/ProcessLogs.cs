namespace EventFilter.Specification.MutationTests;

/// <summary>
/// The logs of one process of <see cref="InMemoryHost"/> that break a log rule only when several processes share the
/// log: alone, a process sees exactly the log. Each keeps the rules as far as its process can tell: its reads stop at
/// its end, so its own filter sees nothing wrong; only a process that compares with the others can.
/// </summary>
internal static class ProcessLogs
{
    /// <summary>Reads back only the records its own process appended (as if from a write-ahead log of its own), skipping the others' as gaps.</summary>
    public sealed class OwnRecordsLog(SharedInMemoryLog shared, int slot) : IStreamNameLog
    {
        public long EndPosition => shared.Records.EndPosition;

        public async ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
        {
            var all = new StreamNameBatch(maxRecords: Math.Max(1, batch.Remaining));
            await shared.Records.ReadAsync(fromPosition, all, cancellationToken);

            // Record i sits at position i: the k-th name read ends at fromPosition + k + 1.
            long position = fromPosition;
            int offset = 0;
            foreach (int length in all.Lengths)
            {
                ReadOnlySpan<byte> name = all.Names.Slice(offset, length);
                offset += length;
                if (shared.AppendedBy(slot, position + 1) && !batch.TryAdd(name))
                {
                    break;
                }

                position++;
            }

            batch.NextPosition = position;
        }
    }

    /// <summary>
    /// An end cached as a database log caches it, but refreshed only at start and after its own process's commits (and
    /// cuts), never on a timer: it never covers what the other processes appended since. Reads stop at it.
    /// </summary>
    public sealed class OwnEndLog(InMemoryStreamLog log) : IStreamNameLog
    {
        private long _end = log.EndPosition;

        public long EndPosition => Volatile.Read(ref _end);

        /// <summary>After this process's commit or cut, under its writer: one refresh at a time.</summary>
        public void Refresh() => Volatile.Write(ref _end, log.EndPosition);

        public async ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
        {
            long end = EndPosition;
            var all = new StreamNameBatch(maxRecords: (int)Math.Clamp(end - fromPosition, 1, Math.Max(1, batch.Remaining)));
            await log.ReadAsync(fromPosition, all, cancellationToken);
            long position = fromPosition;
            int offset = 0;
            foreach (int length in all.Lengths)
            {
                if (position >= end || !batch.TryAdd(all.Names.Slice(offset, length)))
                {
                    break;
                }

                offset += length;
                position++;
            }

            batch.NextPosition = position;
        }
    }
}
