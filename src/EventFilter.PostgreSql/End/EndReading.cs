using Npgsql;

namespace EventFilter.PostgreSql.End;

/// <summary>
/// One way to read the events table's end; <see cref="HighWaterMark"/> is the one that is safe. Tests put a broken one
/// in its place to show the specification kit catches it.
/// </summary>
internal abstract class EndReading
{
    /// <summary>The highest position the sequence had handed out at the last reading.</summary>
    public long Allocated { get; protected set; }

    /// <summary>When the oldest reading not yet settled was taken (<see cref="TimeProvider.GetTimestamp"/>); null when none is pending.</summary>
    public long? HeldSince { get; protected set; }

    /// <summary>One reading over <paramref name="connection"/>, taken at <paramref name="timestamp"/>; returns the end. Called one at a time.</summary>
    public abstract Task<long> ReadAsync(NpgsqlConnection connection, long timestamp, CancellationToken cancellationToken);
}
