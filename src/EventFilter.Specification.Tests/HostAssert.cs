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
                ? $"{HostContractRules.Log}: '{stream}' was appended, acknowledged and added, but the filter answers \"definitely not\" {when}: a catch-up from the checkpoint did not read its record back. ReadAsync must return every durable record at or after the position it is given, and EndPosition must cover every acknowledged record."
                : $"{HostContractRules.Rule2}: '{stream}' was appended and acknowledged, but the host never added it to the filter, which answers \"definitely not\" {when}. Call Add(name, recordEnd) for every record appended.");
        }
    }

    /// <summary>Each add's end must be where the log itself says the record ends.</summary>
    public static async Task EndsMatchTheLogAsync(KitRun run)
    {
        var ends = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach ((string stream, long end) in await RecordsAsync(run.Host.Log))
        {
            ends[stream] = Math.Max(end, ends.GetValueOrDefault(stream));
        }

        foreach ((string stream, long given) in run.Filter.Adds)
        {
            if (!ends.TryGetValue(stream, out long end))
            {
                throw new XunitException($"{HostContractRules.Log}: the host added '{stream}', but ReadAsync never returns a record of it.");
            }

            if (given != end)
            {
                throw new XunitException($"{HostContractRules.Rule2}: '{stream}' was added with record end {given}, but in the log's own positions (what ReadAsync reports as NextPosition after reading it) its record ends at {end}. Give each add the position just past its record.");
            }
        }
    }

    /// <summary>Nothing the filter reported as a broken rule, and no failure in its background work.</summary>
    public static void Clean(KitRun run)
    {
        foreach ((HostContractViolation violation, string detail) in run.Observer.Violations)
        {
            throw new XunitException($"{HostContractRules.Of(violation)}: the filter reported {violation}: {detail}");
        }

        foreach (Exception failure in run.Observer.Failures)
        {
            throw new XunitException($"The filter's background work failed over this host's log: {failure.GetType().Name}: {failure.Message}");
        }
    }

    /// <summary>Every durable record of the log, with the position just past it, read one at a time as a catch-up reads them.</summary>
    public static async Task<IReadOnlyList<(string Stream, long End)>> RecordsAsync(IStreamNameLog log)
    {
        var records = new List<(string, long)>();
        long position = 0, end = log.EndPosition;
        while (position < end)
        {
            var one = new StreamNameBatch(maxRecords: 1, nameBytes: 1024) { NextPosition = position };
            await log.ReadAsync(position, one, CancellationToken.None).ConfigureAwait(false);
            if (one.NextPosition <= position)
            {
                break;
            }

            records.Add((System.Text.Encoding.UTF8.GetString(one.Names), one.NextPosition));
            position = one.NextPosition;
        }

        return records;
    }
}
