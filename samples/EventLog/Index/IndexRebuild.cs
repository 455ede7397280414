using EventLog.Segments;
using EventLog.Streams;

namespace EventLog.Index;

/// <summary>
/// On start, replays the log from where the index files end to the log's end into the memtable (sealing and handing
/// over full tables as the writer would), so the index again covers every durable record.
/// </summary>
internal static class IndexRebuild
{
    /// <summary>Replays [<paramref name="from"/>, <paramref name="to"/>) and returns the records replayed.</summary>
    public static async Task<long> ReplayAsync(
        SegmentSet segments, StreamIndex index, IndexMaintenance maintenance, int memTableEntries, long from, long to, CancellationToken cancellationToken)
    {
        var scanner = new LogScanner(segments, from, to);
        long records = 0;
        while (scanner.NextDurable())
        {
            ReadOnlySpan<byte> name = scanner.StreamName;
            index.Active.Add(StrictUtf8.Decode(name), StreamHash.Of(name), scanner.Header.EventNumber, scanner.RecordPosition);
            records++;

            // Seal only at the end of an append, as the writer does, so a table never covers half an append.
            if (scanner.Header.IsLastOfAppend && index.Active.Count >= memTableEntries)
            {
                index.Active.CoverTo(scanner.Position);
                await maintenance.EnqueueAsync(index.SealActive(), cancellationToken).ConfigureAwait(false);
            }
        }

        index.Active.CoverTo(to);
        return records;
    }
}
