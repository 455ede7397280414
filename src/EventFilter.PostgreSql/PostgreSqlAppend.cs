using Npgsql;

namespace EventFilter.PostgreSql;

/// <summary>
/// One attempt of an appending transaction, handed to the code that inserts the events
/// (<see cref="PostgreSqlAppender.AppendAsync"/>). Its transaction has taken its id already; run every statement on
/// <see cref="Connection"/> in <see cref="Transaction"/> (<see cref="CreateCommand"/> does), skip a stream's lookup only
/// where <see cref="MightExist(string)"/> says "definitely not", and call <see cref="Added"/> for every row inserted,
/// with its position, before returning: the appender commits after that.
/// </summary>
public sealed class PostgreSqlAppend
{
    private readonly IStreamExistenceFilter _filter;
    private bool _finished;

    internal PostgreSqlAppend(NpgsqlConnection connection, NpgsqlTransaction transaction, IStreamExistenceFilter filter, int attempt)
    {
        Connection = connection;
        Transaction = transaction;
        Attempt = attempt;
        _filter = filter;
    }

    /// <summary>The connection the transaction runs on.</summary>
    public NpgsqlConnection Connection { get; }

    /// <summary>The appending transaction; the appender commits it, or rolls it back if the code throws.</summary>
    public NpgsqlTransaction Transaction { get; }

    /// <summary>1 for the first attempt; more after a unique violation sent the append round again.</summary>
    public int Attempt { get; }

    /// <summary>A command on the transaction.</summary>
    /// <param name="sql">The statement, with $1, $2 ... parameters.</param>
    /// <returns>The command; the caller disposes it.</returns>
    public NpgsqlCommand CreateCommand(string sql) => new(sql, Connection, Transaction);

    /// <summary>
    /// False when <paramref name="streamName"/> was definitely never written, so its lookup may be skipped: the insert
    /// then meets the unique constraint if another process created the stream since this filter last heard, and the
    /// append goes round again with every answer "maybe". Always true after the first attempt.
    /// </summary>
    /// <param name="streamName">The stream.</param>
    /// <returns>True when the stream might exist.</returns>
    public bool MightExist(string streamName) => Attempt > 1 || _filter.MightExist(streamName);

    /// <summary>The answers of <see cref="MightExist(string)"/> for several streams in one call.</summary>
    /// <param name="streamNames">The streams.</param>
    /// <param name="results">One answer per stream.</param>
    public void MightExist(ReadOnlySpan<string> streamNames, Span<bool> results)
    {
        if (Attempt > 1)
        {
            results[..streamNames.Length].Fill(true);
            return;
        }

        _filter.MightExist(streamNames, results);
    }

    /// <summary>
    /// Tells the filter a row of <paramref name="streamName"/> was inserted at <paramref name="position"/> (the
    /// position column's value, from <c>RETURNING</c>). Call it before returning from the append's code: after the
    /// commit a checkpoint could claim the row before its name is in the filter.
    /// </summary>
    /// <param name="streamName">The row's stream.</param>
    /// <param name="position">The row's position.</param>
    public void Added(string streamName, long position)
    {
        ArgumentException.ThrowIfNullOrEmpty(streamName);
        ArgumentOutOfRangeException.ThrowIfNegative(position);
        ObjectDisposedException.ThrowIf(_finished, this);
        _filter.Add(streamName, position + 1); // the record's end: one past its position
    }

    /// <summary>The append's code has returned: from here on an add would come after the commit.</summary>
    internal void Finish() => _finished = true;
}
