namespace EventFilter.Hosting;

/// <summary>
/// A resize under way: the file of <see cref="FromSizeBytes"/> answers lookups while the new one of
/// <see cref="ToSizeBytes"/> catches up from the log beside it (docs/design.md, "Resize").
/// </summary>
public sealed class FilterResizeProgress
{
    internal FilterResizeProgress(long fromSizeBytes, long toSizeBytes, double percent, TimeSpan? estimatedRemaining)
    {
        FromSizeBytes = fromSizeBytes;
        ToSizeBytes = toSizeBytes;
        Percent = percent;
        EstimatedRemaining = estimatedRemaining;
    }

    /// <summary>The size of the file serving now.</summary>
    public long FromSizeBytes { get; }

    /// <summary>The configured size being built.</summary>
    public long ToSizeBytes { get; }

    /// <summary>How much of the log the new file has read, 0 to 100 (0 until its first progress report).</summary>
    public double Percent { get; }

    /// <summary>When the new file should have caught up; null until there is a rate to go by.</summary>
    public TimeSpan? EstimatedRemaining { get; }
}


/// <summary>What a host shows of a resize (the server's <c>GET /filter</c>); registered by <c>AddStreamExistenceFilter</c>.</summary>
public interface IFilterResizeStatus
{
    /// <summary>The resize under way, or null when none is.</summary>
    FilterResizeProgress? Resize { get; }
}
