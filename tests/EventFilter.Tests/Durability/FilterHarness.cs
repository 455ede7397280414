namespace EventFilter.Tests.Durability;

/// <summary>Opens a <see cref="StreamExistenceFilter"/> the way a host does, and checks it against the log.</summary>
public static class FilterHarness
{
    public static StreamExistenceFilterOptions Options(TempDirectory dir, long size = 1 << 20, long checkpointRecords = 1_000_000) =>
        new() { DataDirectory = dir.Path, SizeBytes = size, CatchUpCheckpointRecords = checkpointRecords };

    public static async Task<StreamExistenceFilter> OpenReadyAsync(StreamExistenceFilterOptions options, InMemoryStreamLog log, RecordingObserver? observer = null)
    {
        var filter = new StreamExistenceFilter(options, log, observer);
        filter.Open();
        await filter.CatchUpAsync(CancellationToken.None);
        Assert.True(filter.IsReady);
        return filter;
    }

    /// <summary>Opens a filter, appends <paramref name="count"/> names from 0, checkpoints at the log's end and closes it.</summary>
    public static async Task WriteCheckpointedAsync(StreamExistenceFilterOptions options, InMemoryStreamLog log, int count)
    {
        using StreamExistenceFilter filter = await OpenReadyAsync(options, log);
        Append(log, filter, 0, count);
        filter.Checkpoint(log.EndPosition);
    }

    /// <summary>Appends to the log and adds to the filter, as the host does on every write.</summary>
    public static void Append(InMemoryStreamLog log, IStreamExistenceFilter filter, int from, int count)
    {
        for (int i = from; i < from + count; i++)
        {
            filter.Add(Names.Added(i), log.Append(Names.Added(i)));
        }
    }

    /// <summary>Names from the log the filter calls "definitely not": must always be zero.</summary>
    public static int FalseNegatives(IStreamExistenceFilter filter, int count)
    {
        int missing = 0;
        for (int i = 0; i < count; i++)
        {
            missing += filter.MightExist(Names.Added(i)) ? 0 : 1;
        }

        return missing;
    }
}
