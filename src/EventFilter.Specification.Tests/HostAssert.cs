using Xunit.Sdk;

namespace EventFilter.Specification;

/// <summary>The kit's checks, each failing with the rule of the host contract it found broken.</summary>
internal static class HostAssert
{
    /// <summary>Every acknowledged stream must be found: a "definitely not" for one of them is a false negative.</summary>
    public static void EveryStreamFound(KitRun run, IEnumerable<string> streams, string when)
    {
        foreach (string stream in streams)
        {
            if (run.Filter.MightExist(stream))
            {
                continue;
            }

            bool added = run.Filter.Adds.Any(a => a.Stream == stream);
            throw new XunitException(added
                ? $"{HostContractRules.LogReads}: '{stream}' was appended, acknowledged and added, but the filter answers \"definitely not\" {when}: a catch-up from the checkpoint did not read its record back. ReadAsync must return every durable record at or after the position it is given, and EndPosition must cover every acknowledged record."
                : $"{HostContractRules.Rule2}: '{stream}' was appended and acknowledged, but the host never added it to the filter, which answers \"definitely not\" {when}. Call Add(name, recordEnd) for every record appended.");
        }
    }

    /// <summary>Each added stream must be read back from the log (log rule 2), and each add's end be where the log says the record ends (rule 2).</summary>
    public static async Task EndsMatchTheLogAsync(KitRun run)
    {
        var ends = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach ((string stream, long end) in await RecordsAsync(run))
        {
            ends[stream] = Math.Max(end, ends.GetValueOrDefault(stream));
        }

        // A log that skips records is named before the ends are compared: its reads would make every end look wrong.
        if (run.Filter.Adds.FirstOrDefault(a => !ends.ContainsKey(a.Stream)) is { Stream: not null } missing)
        {
            throw new XunitException($"{HostContractRules.LogReads}: the host added '{missing.Stream}' (record end {missing.RecordEnd}), but ReadAsync, called from each record's position in turn, never returns a record of it.");
        }

        foreach ((string stream, long given) in run.Filter.Adds)
        {
            long end = ends[stream];
            if (given != end)
            {
                throw new XunitException($"{HostContractRules.Rule2}: '{stream}' was added with record end {given}, but in the log's own positions (what ReadAsync reports as NextPosition after reading it) its record ends at {end}. Give each add the position just past its record.");
            }
        }
    }

    /// <summary>Reads of the end, with nothing appending, that a clean run ends with.</summary>
    private const int EndReadsAtRest = 32;

    /// <summary>Nothing the filter or the kit saw as a broken rule (the log's first), and no failure in the filter's background work.</summary>
    public static async Task CleanAsync(KitRun run)
    {
        // Nothing appends now: an end that moves back even now and then shows within a few reads, whatever the phase of
        // its flapping against the reads the filter happened to make while appends ran.
        try
        {
            for (int read = 0; read < EndReadsAtRest; read++)
            {
                _ = run.Log.EndPosition;
            }
        }
        catch (Exception)
        {
            // A log that cannot be read once its host is disposed: the checks below go by what was seen while it ran.
        }

        if (run.Log.WentBack is (long from, long to))
        {
            await EndWentBackAsync(run, from, to).ConfigureAwait(false);
        }

        foreach ((LogContractViolation violation, string detail) in run.Observer.LogViolations)
        {
            throw new XunitException($"{HostContractRules.Of(violation)}: the filter's catch-up reported {violation}: {detail}");
        }

        foreach ((HostContractViolation violation, string detail) in run.Observer.Violations)
        {
            throw new XunitException($"{HostContractRules.Of(violation)}: the filter reported {violation}: {detail}");
        }

        foreach (Exception failure in run.Observer.Failures)
        {
            throw new XunitException($"The filter's background work failed over this host's log: {failure.GetType().Name}: {failure.Message}");
        }
    }

    // The end went back with no TruncateTo: a cut the host did not report (records it had acknowledged below the old
    // end are gone), or an end that moved back while every record stayed (a stale cache, a replica).
    private static async Task EndWentBackAsync(KitRun run, long from, long to)
    {
        HashSet<(string Stream, long End)> records;
        try
        {
            // Read three times: a flapping end may stop one read short of the last record, which is not a cut.
            records = [];
            for (int read = 0; read < 3; read++)
            {
                records.UnionWith(await RecordsAsync(run).ConfigureAwait(false));
            }
        }
        catch (Exception unreadable) when (unreadable is not XunitException)
        {
            // The stopped host's log cannot be read back to tell which: say both.
            throw new XunitException($"{HostContractRules.Rule4} or {HostContractRules.LogEnd}: the log's end went back from {from} to {to} with no TruncateTo. If the log was cut, call TruncateTo before appending past the cut; if not, the end must only grow. (The stopped log could not be read to tell which: {unreadable.Message})");
        }

        if (run.Filter.Adds.FirstOrDefault(a => a.RecordEnd > to && a.RecordEnd <= from && !records.Contains(a)) is { Stream: not null } gone)
        {
            throw new XunitException($"{HostContractRules.Rule4}: the log's end went back from {from} to {to} and the record of '{gone.Stream}' (ending at {gone.RecordEnd}) is gone, but the host never called TruncateTo. Call TruncateTo when the log is cut, before appending past the cut.");
        }

        throw new XunitException($"{HostContractRules.LogEnd}: EndPosition went back from {from} to {to} with no TruncateTo, while every record stayed: the durable end only grows. An end that moves back (a stale cache, a replica) makes a catch-up or a checkpoint stop short of records that are there.");
    }

    /// <summary>Every durable record of the log, with the position just past it, read one at a time; fails naming the log rule a read breaks.</summary>
    public static Task<IReadOnlyList<(string Stream, long End)>> RecordsAsync(KitRun run) => LogCheck.RecordsAsync(run.Host.Log, run.Time);
}
