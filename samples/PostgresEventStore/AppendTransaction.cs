using EventFilter;
using Npgsql;
using NpgsqlTypes;

namespace PostgresEventStore;

/// <summary>One attempt of a <see cref="GroupCommit"/>: look up, check, insert, add to the filter, commit.</summary>
internal sealed class AppendTransaction(IReadOnlyList<Append> appends, bool trustFilter)
{
    // The transaction id first: HighWaterMark relies on every transaction having one before it takes a position.
    private const string TakeTransactionId = "select pg_current_xact_id()";
    private const string LookUp = "select stream_id, max(version) from events where stream_id = any($1) group by stream_id";
    private const string Insert = """
        insert into events (stream_id, version, type, data)
        select * from unnest($1::text[], $2::bigint[], $3::text[], $4::jsonb[])
        returning global_position, stream_id, version
        """;

    private readonly List<string> _streams = [];
    private readonly List<long> _versions = [];
    private readonly List<string> _types = [];
    private readonly List<string> _data = [];

    public AppendResult[] Results { get; } = new AppendResult[appends.Count];

    /// <summary>The highest position this transaction took; 0 if it inserted nothing.</summary>
    public long HighestPosition { get; private set; }

    public async Task RunAsync(NpgsqlConnection connection, IStreamExistenceFilter filter, CancellationToken cancellationToken)
    {
        await using NpgsqlTransaction transaction = await connection.BeginTransactionAsync(cancellationToken);
        string[] lookUp = StreamsToLookUp(filter);
        Dictionary<string, long> versions = lookUp.Length == 0 ? [] : await LookUpAsync(connection, transaction, lookUp, cancellationToken);
        Check(versions);
        if (_streams.Count > 0)
        {
            await InsertAndAddAsync(connection, transaction, filter, takeId: lookUp.Length == 0, cancellationToken);
        }

        await transaction.CommitAsync(cancellationToken);
    }

    // Only a new stream can skip its lookup, and only when the filter says "definitely not": one call for the group.
    private string[] StreamsToLookUp(IStreamExistenceFilter filter)
    {
        string[] streams = [.. appends.Select(append => append.Stream).Distinct(StringComparer.Ordinal)];
        if (!trustFilter)
        {
            return streams; // after a unique violation: one of them is another writer's stream, which this filter never saw
        }

        var mightExist = new bool[streams.Length];
        filter.MightExist(streams, mightExist);
        var expectsExisting = new HashSet<string>(appends.Where(a => a.ExpectedVersion != Append.NoStream).Select(a => a.Stream), StringComparer.Ordinal);
        return [.. streams.Where((stream, i) => mightExist[i] || expectsExisting.Contains(stream))];
    }

    private static async Task<Dictionary<string, long>> LookUpAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, string[] streams, CancellationToken cancellationToken)
    {
        await using var batch = new NpgsqlBatch(connection, transaction) { BatchCommands = { new(TakeTransactionId), new(LookUp) { Parameters = { new() { Value = streams } } } } };
        await using NpgsqlDataReader reader = await batch.ExecuteReaderAsync(cancellationToken);
        await reader.NextResultAsync(cancellationToken);
        var versions = new Dictionary<string, long>(StringComparer.Ordinal);
        while (await reader.ReadAsync(cancellationToken))
        {
            versions[reader.GetString(0)] = reader.GetInt64(1);
        }

        return versions;
    }

    // In order, so that a stream twice in the group sees its first append's events at the second.
    private void Check(Dictionary<string, long> versions)
    {
        for (int i = 0; i < appends.Count; i++)
        {
            Append append = appends[i];
            long current = versions.GetValueOrDefault(append.Stream, Append.NoStream);
            if (append.ExpectedVersion != current)
            {
                Results[i] = AppendResult.WrongExpectedVersion(current);
                continue;
            }

            foreach (EventData data in append.Events)
            {
                _streams.Add(append.Stream);
                _versions.Add(++current);
                _types.Add(data.Type);
                _data.Add(data.Json);
            }

            versions[append.Stream] = current;
            Results[i] = new AppendResult(true, current, 0);
        }
    }

    private async Task InsertAndAddAsync(NpgsqlConnection connection, NpgsqlTransaction transaction, IStreamExistenceFilter filter, bool takeId, CancellationToken cancellationToken)
    {
        var insert = new NpgsqlBatchCommand(Insert)
        {
            Parameters =
            {
                new() { Value = _streams.ToArray() },
                new() { Value = _versions.ToArray() },
                new() { Value = _types.ToArray() },
                new() { Value = _data.ToArray(), NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Jsonb },
            },
        };
        await using var batch = new NpgsqlBatch(connection, transaction);
        if (takeId)
        {
            batch.BatchCommands.Add(new NpgsqlBatchCommand(TakeTransactionId));
        }

        batch.BatchCommands.Add(insert);
        await using NpgsqlDataReader reader = await batch.ExecuteReaderAsync(cancellationToken);
        if (takeId)
        {
            await reader.NextResultAsync(cancellationToken);
        }

        // An insert with RETURNING runs to its end before the first row comes back: a 23505 arrives before any add.
        var positions = new Dictionary<(string, long), long>();
        while (await reader.ReadAsync(cancellationToken))
        {
            (long position, string stream) = (reader.GetInt64(0), reader.GetString(1));
            positions[(stream, reader.GetInt64(2))] = position;
            filter.Add(stream, position + 1); // before the commit, with the record's end (docs/design.md, rule 3)
            HighestPosition = Math.Max(HighestPosition, position);
        }

        for (int i = 0; i < appends.Count; i++)
        {
            if (Results[i].Appended && appends[i].Events.Count > 0)
            {
                Results[i] = Results[i] with { LastPosition = positions[(appends[i].Stream, Results[i].CurrentVersion)] };
            }
        }
    }
}
