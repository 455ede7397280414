using System.Collections.Concurrent;

namespace EventFilter.Specification.MutationTests;

/// <summary>The logs of <see cref="InMemoryHost"/> that break a log rule (docs/design.md, "The log's rules"), one per mutation.</summary>
internal static class BrokenLogs
{
    public static IStreamNameLog For(InMemoryStreamLog log, Mutation mutation) => mutation switch
    {
        Mutation.ReadSkipsARecord => new SkippingLog(log),
        Mutation.ReadComesBackEmptyOnce => new EmptyOnceLog(log),
        Mutation.EndLagsBehind => new EndLog(log, end => Math.Max(0, end - 1)),
        Mutation.EndAheadOfTheRecords => new EndLog(log, end => end + 3),
        Mutation.EndGoesBack => new FlappingEndLog(log),
        Mutation.ReadsPastTheEnd => new PastTheEndLog(log),
        _ => log,
    };

    /// <summary>Reads skip the records of the streams <c>concurrent-7</c>, <c>checkpointed-7</c> and so on.</summary>
    private sealed class SkippingLog(InMemoryStreamLog log) : IStreamNameLog
    {
        public long EndPosition => log.EndPosition;

        public async ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
        {
            var all = new StreamNameBatch();
            await log.ReadAsync(fromPosition, all, cancellationToken);
            int offset = 0;
            foreach (int length in all.Lengths)
            {
                ReadOnlySpan<byte> name = all.Names.Slice(offset, length);
                offset += length;
                if (!name.EndsWith("-7"u8) && !batch.TryAdd(name))
                {
                    break;
                }
            }

            batch.NextPosition = all.NextPosition;
        }
    }

    /// <summary>The first read from each position returns nothing; asked again, it returns the records.</summary>
    private sealed class EmptyOnceLog(InMemoryStreamLog log) : IStreamNameLog
    {
        private readonly ConcurrentDictionary<long, bool> _asked = new();

        public long EndPosition => log.EndPosition;

        public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
        {
            if (fromPosition < log.EndPosition && _asked.TryAdd(fromPosition, true))
            {
                batch.NextPosition = fromPosition;
                return ValueTask.CompletedTask;
            }

            return log.ReadAsync(fromPosition, batch, cancellationToken);
        }
    }

    /// <summary>The records as they are, under an end the mutation moves.</summary>
    private sealed class EndLog(InMemoryStreamLog log, Func<long, long> end) : IStreamNameLog
    {
        public long EndPosition => end(log.EndPosition);

        public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken) =>
            log.ReadAsync(fromPosition, batch, cancellationToken);
    }

    /// <summary>Every fifth read of the end, once the log holds records, is one less than the end.</summary>
    private sealed class FlappingEndLog(InMemoryStreamLog log) : IStreamNameLog
    {
        private int _reads;

        public long EndPosition
        {
            get
            {
                long end = log.EndPosition;
                return end > 0 && Interlocked.Increment(ref _reads) % 5 == 0 ? end - 1 : end;
            }
        }

        public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken) =>
            log.ReadAsync(fromPosition, batch, cancellationToken);
    }

    /// <summary>A read that reaches the end says the next record is one past it.</summary>
    private sealed class PastTheEndLog(InMemoryStreamLog log) : IStreamNameLog
    {
        public long EndPosition => log.EndPosition;

        public async ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
        {
            await log.ReadAsync(fromPosition, batch, cancellationToken);
            if (batch.Count > 0 && batch.NextPosition == log.EndPosition)
            {
                batch.NextPosition++;
            }
        }
    }
}
