namespace EventFilter;

/// <summary>How far a catch-up has come.</summary>
public sealed class CatchUpProgress
{
    /// <summary>Makes a report; the filter makes them, and so does a host that catches up files of its own.</summary>
    public CatchUpProgress(string path, long startPosition, long position, long endPosition, long records, TimeSpan elapsed)
    {
        Path = path;
        StartPosition = startPosition;
        Position = position;
        EndPosition = endPosition;
        Records = records;
        Elapsed = elapsed;
    }

    /// <summary>The filter file being caught up.</summary>
    public string Path { get; }

    /// <summary>Where it started (the checkpoint, or 0).</summary>
    public long StartPosition { get; }

    /// <summary>Where it has read to.</summary>
    public long Position { get; }

    /// <summary>The log's end as last sampled.</summary>
    public long EndPosition { get; }

    /// <summary>Records added so far.</summary>
    public long Records { get; }

    /// <summary>Time since it started.</summary>
    public TimeSpan Elapsed { get; }
}
