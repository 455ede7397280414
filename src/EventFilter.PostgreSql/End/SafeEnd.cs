using Npgsql;

namespace EventFilter.PostgreSql.End;

/// <summary>
/// The log's end as the filter reads it, cached: <see cref="IStreamNameLog.EndPosition"/> is a synchronous property
/// read on the filter's hot paths, so it cannot run a query. <see cref="RefreshAsync"/> raises it: after each of this
/// process's commits, on each notification of another's, and on the poll. A cached value that lags is safe, only
/// later; it never goes back.
/// </summary>
internal sealed class SafeEnd(NpgsqlDataSource database, EndReading reading, TimeProvider time)
{
    // One reading at a time: each builds on the one before it (HighWaterMark's pending pairs).
    private readonly SemaphoreSlim _refreshing = new(1, 1);
    private TaskCompletionSource _advanced = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _value;
    private long _allocated;
    private long _heldSince; // a timestamp, 0 when nothing is held

    /// <summary>The cached end: 0 until the first reading.</summary>
    public long Value => Volatile.Read(ref _value);

    /// <summary>The highest position handed out, as of the last reading.</summary>
    public long Allocated => Volatile.Read(ref _allocated);

    /// <summary>How long the end has been held below a position already handed out; zero when settled.</summary>
    public TimeSpan HeldFor => Volatile.Read(ref _heldSince) is long since and > 0 ? time.GetElapsedTime(since) : TimeSpan.Zero;

    /// <summary>
    /// Reads the end once. A reading settles what it saw allocated when nothing older was running, and what earlier
    /// readings saw once their transactions have ended: to cover a commit just made while others run, read twice.
    /// </summary>
    public async Task RefreshAsync(CancellationToken cancellationToken = default)
    {
        await _refreshing.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            await using NpgsqlConnection connection = await database.OpenConnectionAsync(cancellationToken).ConfigureAwait(false);
            long end = await reading.ReadAsync(connection, time.GetTimestamp(), cancellationToken).ConfigureAwait(false);
            Volatile.Write(ref _allocated, reading.Allocated);
            Volatile.Write(ref _heldSince, reading.HeldSince is long since ? Math.Max(since, 1) : 0);
            if (end > _value)
            {
                Volatile.Write(ref _value, end);
                Interlocked.Exchange(ref _advanced, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
            }
        }
        finally
        {
            _refreshing.Release();
        }
    }

    /// <summary>Whether the last reading left positions it saw handed out unsettled.</summary>
    public bool Held => Volatile.Read(ref _heldSince) != 0;

    /// <summary>Completes once <see cref="Value"/> is above <paramref name="endPosition"/>.</summary>
    public ValueTask WhenPastAsync(long endPosition, CancellationToken cancellationToken) => WhenReachedAsync(endPosition + 1, cancellationToken);

    /// <summary>Completes once <see cref="Value"/> has reached <paramref name="position"/>.</summary>
    public async ValueTask WhenReachedAsync(long position, CancellationToken cancellationToken)
    {
        while (true)
        {
            Task advanced = Volatile.Read(ref _advanced).Task; // taken before the check, so no raise is missed
            if (Value >= position)
            {
                return;
            }

            await advanced.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
    }
}
