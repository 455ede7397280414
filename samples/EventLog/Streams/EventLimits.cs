namespace EventLog.Streams;

/// <summary>The engine's fixed input limits; anything beyond them is rejected before it is queued, changing nothing.</summary>
public static class EventLimits
{
    /// <summary>A stream name is 1 to 1,000 bytes once encoded as UTF-8.</summary>
    public const int MaxStreamNameBytes = 1000;

    /// <summary>An event type is 1 to 255 bytes once encoded as UTF-8 (it is stored behind a one-byte length).</summary>
    public const int MaxEventTypeBytes = 255;

    /// <summary>The most events one append may carry.</summary>
    public const int MaxEventsPerAppend = 10_000;

    /// <summary>The most events one forward read returns.</summary>
    public const int MaxReadCount = 4096;
}
