using System.Collections.Concurrent;
using System.Globalization;
using System.Text;

using EventFilter;

namespace EventLog.Server.Tests;

/// <summary>
/// Opens a killed server's data directory with the engine itself and checks it against the log: the index answers
/// every stream's last event number as a full scan of the log counts it, every acknowledged event is there with its
/// data, and the index files on disk are exactly the ones the index uses (none left behind by a merge, none revived).
/// </summary>
internal static class EngineCheck
{
    /// <summary>The engine settings the crash-path tests give the server: tiny segments and memtables, eager merges.</summary>
    public static EventLogOptions Options(string directory, int memTableEntries) => new()
    {
        DataDirectory = directory,
        SegmentSizeBytes = 64 * 1024,
        MemTableEntries = memTableEntries,
        IndexMergeThreshold = 2,
        StreamExistenceFilterSizeBytes = 0,
        FilterCheckpointInterval = TimeSpan.Zero,
    };

    /// <summary>The same settings as server switches.</summary>
    public static string[] Switches(int memTableEntries) =>
    [
        "--EventLog:SegmentSizeBytes", "65536",
        "--EventLog:MemTableEntries", memTableEntries.ToString(CultureInfo.InvariantCulture),
        "--EventLog:IndexMergeThreshold", "2",
    ];

    /// <summary>
    /// Checks the directory. Streams whose records start at or after <paramref name="checkFrom"/> are all checked
    /// against the index, older ones by a sample of <paramref name="olderSample"/> (all when it is negative), so that a
    /// long run stays linear. Returns the log's end, to check from next time.
    /// </summary>
    public static async Task<long> VerifyAsync(
        string directory, int memTableEntries, ConcurrentDictionary<string, long> acknowledged, long checkFrom, int olderSample, Random random)
    {
        EventLogOptions options = Options(directory, memTableEntries);
        long end;
        await using (EventLogEngine engine = await EventLogEngine.OpenAsync(options))
        {
            end = engine.EndPosition;
            (Dictionary<string, long> counts, HashSet<string> recent) = await ScanAsync(engine, checkFrom);
            IEnumerable<string> older = counts.Keys.Where(s => !recent.Contains(s));
            IEnumerable<string> checkedStreams = olderSample < 0 ? counts.Keys : recent.Concat(older.OrderBy(_ => random.Next()).Take(olderSample));
            foreach (string stream in checkedStreams)
            {
                Assert.True(counts[stream] - 1 == engine.GetLastEventNumber(stream), $"the index says {engine.GetLastEventNumber(stream)} for {stream}; the log holds {counts[stream]} events");
            }

            Assert.Equal(-1, engine.GetLastEventNumber("never-written-" + random.Next()));
            foreach ((string stream, long last) in acknowledged)
            {
                if (olderSample >= 0 && !recent.Contains(stream) && random.Next(100) != 0)
                {
                    continue; // older acknowledgements were checked in full when they were recent
                }

                EventLog.Streams.StreamSlice slice = engine.ReadStreamForward(stream, 0, (int)last + 1);
                Assert.True(slice.Events.Count == last + 1, $"acknowledged event {last} of {stream} lost: {slice.Events.Count} events read");
                for (int i = 0; i < slice.Events.Count; i++)
                {
                    Assert.Equal(i.ToString(CultureInfo.InvariantCulture), Encoding.UTF8.GetString(slice.Events[i].Data.Span));
                }
            }
        }

        // Opened once more: merged-away files were deleted when the first engine let go of them.
        await using EventLogEngine reopened = await EventLogEngine.OpenAsync(options);
        string index = Path.Combine(directory, "index");
        Assert.Equal(reopened.IndexRecovery.Files, Directory.Exists(index) ? Directory.GetFiles(index, "*.idx").Length : 0);
        return end;
    }

    /// <summary>Events per stream over the whole log, and the streams with a record at or after <paramref name="recentFrom"/>.</summary>
    private static async Task<(Dictionary<string, long> Counts, HashSet<string> Recent)> ScanAsync(IStreamNameLog log, long recentFrom)
    {
        var counts = new Dictionary<string, long>(StringComparer.Ordinal);
        var recent = new HashSet<string>(StringComparer.Ordinal);
        var batch = new StreamNameBatch();
        for (long position = 0; position < log.EndPosition;)
        {
            batch.Clear();
            await log.ReadAsync(position, batch, CancellationToken.None);
            Assert.True(batch.NextPosition > position, $"the log's scan made no progress at {position}");
            int offset = 0;
            foreach (int length in batch.Lengths)
            {
                string name = Encoding.UTF8.GetString(batch.Names.Slice(offset, length));
                offset += length;
                counts[name] = counts.GetValueOrDefault(name) + 1;
                if (batch.NextPosition > recentFrom)
                {
                    recent.Add(name); // a batch reaching past the mark: some of it is recent, and more checked is no harm
                }
            }

            position = batch.NextPosition;
        }

        return (counts, recent);
    }
}
