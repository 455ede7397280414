using System.Diagnostics;
using EventFilter.PostgreSql;
using Npgsql;

namespace EventFilter.PostgreSqlBench;

/// <summary>The sample's write path for one event to a stream that must not exist yet: look it up only on "maybe".</summary>
internal static class Writes
{
    /// <summary>Creates <paramref name="stream"/>; whether it was new, whether its lookup was skipped, the attempts, and (record end, the moment before the commit).</summary>
    public static async Task<(bool Created, bool SkippedLookUp, int Attempts, (long End, long Committing) Commit)> CreateAsync(PostgreSqlAppender appender, string stream)
    {
        bool skipped = false;
        int attempts = 0;
        (bool created, long end, long committing) = await appender.AppendAsync(async (append, cancel) =>
        {
            attempts = append.Attempt;
            if (append.MightExist(stream))
            {
                await using NpgsqlCommand lookUp = append.CreateCommand("select max(version) from events where stream_id = $1");
                lookUp.Parameters.Add(new() { Value = stream });
                if (await lookUp.ExecuteScalarAsync(cancel) is long)
                {
                    return (false, 0L, 0L);
                }
            }
            else
            {
                skipped = true;
            }

            await using NpgsqlCommand insert = append.CreateCommand("insert into events (stream_id, version, type, data) values ($1, 0, 'Created', '{}') returning global_position");
            insert.Parameters.Add(new() { Value = stream });
            long position = (long)(await insert.ExecuteScalarAsync(cancel))!;
            append.Added(stream, position);
            return (true, position + 1, Stopwatch.GetTimestamp());
        });
        return (created, skipped && attempts == 1, attempts, (end, committing));
    }
}
