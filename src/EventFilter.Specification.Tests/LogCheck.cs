using System.Text;
using Xunit.Sdk;

namespace EventFilter.Specification;

/// <summary>
/// The kit's checks of the host's log against the log's rules (docs/design.md, "The log's rules"), made from outside
/// the filter: a read of every record one at a time, which names the rule a log breaks where a catch-up could only see
/// that something is wrong; and a check that the end covers every acknowledged record once none is in flight.
/// </summary>
internal static class LogCheck
{
    /// <summary>How long the end may take to cover acknowledged records once no append is in flight: a cached end refreshes within it.</summary>
    public static readonly TimeSpan EndPatience = TimeSpan.FromSeconds(5);

    private const int EmptyReadRetries = 3;

    /// <summary>Every durable record of the log, with the position just past it, read one at a time; fails naming the log rule a read breaks.</summary>
    public static async Task<IReadOnlyList<(string Stream, long End)>> RecordsAsync(IStreamNameLog log, TimeProvider time)
    {
        var records = new List<(string, long)>();
        long position = 0, end = log.EndPosition;
        while (position < end)
        {
            StreamNameBatch one = await ReadOneAsync(log, position).ConfigureAwait(false);
            if (one.Count == 0 && one.NextPosition <= position)
            {
                await ExplainEmptyReadAsync(log, position, end).ConfigureAwait(false);
            }

            if (one.Count > 0 && one.NextPosition <= position)
            {
                throw new XunitException($"{HostContractRules.LogPositions}: ReadAsync({position}) returned '{Encoding.UTF8.GetString(one.Names)}' but set NextPosition to {one.NextPosition}: NextPosition must be just past the last record read, so record positions must increase.");
            }

            if (one.NextPosition > end)
            {
                // A cached end may trail a read that saw a fresher one: it must catch up, as the filter waits for it to.
                end = await EndReachingAsync(log, time, one.NextPosition).ConfigureAwait(false);
                if (one.NextPosition > end)
                {
                    throw new XunitException($"{HostContractRules.LogPositions}: ReadAsync({position}) set NextPosition to {one.NextPosition}, and for {EndPatience.TotalSeconds:F0} s EndPosition stayed below it ({end}): a read must stop at the durable end, and EndPosition must cover every record a read returns.");
                }
            }

            if (one.Count > 0)
            {
                records.Add((Encoding.UTF8.GetString(one.Names), one.NextPosition));
            }

            position = one.NextPosition;
        }

        return records;
    }

    /// <summary>
    /// Waits, up to <see cref="EndPatience"/>, for the log's end to cover <paramref name="recordEnd"/>, the end given with
    /// the add of <paramref name="stream"/>, whose append was acknowledged with none in flight; fails naming log rule 1.
    /// </summary>
    public static async Task EndCoversAsync(IStreamNameLog log, TimeProvider time, string stream, long recordEnd)
    {
        if (await EndReachingAsync(log, time, recordEnd).ConfigureAwait(false) < recordEnd)
        {
            throw new XunitException($"{HostContractRules.LogEnd}: every append was acknowledged and none is in flight, yet for {EndPatience.TotalSeconds:F0} s EndPosition stayed at {log.EndPosition}, below the end of '{stream}' ({recordEnd}): a catch-up after a restart would stop there and never read it. EndPosition must cover every durable record (a cached end must be refreshed after each commit), and each add's end must be where ReadAsync says its record ends.");
        }
    }

    /// <summary>The log's end once it reaches <paramref name="position"/>, or as it stands after <see cref="EndPatience"/> on <paramref name="time"/>.</summary>
    private static async Task<long> EndReachingAsync(IStreamNameLog log, TimeProvider time, long position)
    {
        long waited = time.GetTimestamp();
        long end;
        for (int delay = 1; (end = log.EndPosition) < position && time.GetElapsedTime(waited) < EndPatience; delay = Math.Min(delay * 2, 100))
        {
            await Task.Delay(TimeSpan.FromMilliseconds(delay), time).ConfigureAwait(false);
        }

        return end;
    }

    /// <summary>
    /// After the filter reported a log violation: reads the whole log to name the rule more exactly than the filter
    /// could, or returns null when the reads look right from here.
    /// </summary>
    public static async Task<string?> DiagnoseAsync(IStreamNameLog log, TimeProvider time)
    {
        try
        {
            _ = await RecordsAsync(log, time).ConfigureAwait(false);
            return null;
        }
        catch (XunitException named)
        {
            return named.Message;
        }
    }

    // A read below the end that returned nothing: retried, it tells a short read (rule 2) from an end past the records (rule 1).
    private static async Task ExplainEmptyReadAsync(IStreamNameLog log, long position, long end)
    {
        for (int retry = 0; retry < EmptyReadRetries; retry++)
        {
            StreamNameBatch one = await ReadOneAsync(log, position).ConfigureAwait(false);
            if (one.Count > 0 || one.NextPosition > position)
            {
                throw new XunitException($"{HostContractRules.LogReads}: ReadAsync({position}) returned no record while EndPosition was {end}, and the same read, repeated, did. A read must return the durable records from the position it is given until the batch is full or the end is reached: a catch-up that met the empty read would have stopped short.");
            }
        }

        throw new XunitException($"{HostContractRules.LogEnd}: EndPosition is {end}, but no record can be read from {position} ({EmptyReadRetries + 1} reads returned none and did not move on): the end is ahead of the records. EndPosition must be just past the last durable record (or ReadAsync must set NextPosition past a range that holds none).");
    }

    private static async Task<StreamNameBatch> ReadOneAsync(IStreamNameLog log, long position)
    {
        var one = new StreamNameBatch(maxRecords: 1, nameBytes: 1024) { NextPosition = position };
        await log.ReadAsync(position, one, CancellationToken.None).ConfigureAwait(false);
        return one;
    }
}
