namespace EventFilter.Hosting;

/// <summary>
/// A resize under way: the file of <see cref="FromSizeBytes"/> answers lookups while the new one of
/// <see cref="ToSizeBytes"/> catches up from the log beside it (docs/design.md, "Resize").
/// </summary>
/// <param name="FromSizeBytes">The size of the file serving now.</param>
/// <param name="ToSizeBytes">The configured size being built.</param>
/// <param name="Percent">How much of the log the new file has read, 0 to 100 (0 until its first progress report).</param>
/// <param name="EstimatedRemaining">When the new file should have caught up; null until there is a rate to go by.</param>
public sealed record FilterResizeProgress(long FromSizeBytes, long ToSizeBytes, double Percent, TimeSpan? EstimatedRemaining);

/// <summary>What a host shows of a resize (the server's <c>GET /filter</c>); registered by <c>AddStreamExistenceFilter</c>.</summary>
public interface IFilterResizeStatus
{
    /// <summary>The resize under way, or null when none is.</summary>
    FilterResizeProgress? Resize { get; }
}
