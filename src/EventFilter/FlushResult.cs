namespace EventFilter;

/// <summary>What one flush made durable.</summary>
public sealed class FlushResult
{
    internal FlushResult(long bytesFlushed, TimeSpan duration)
    {
        BytesFlushed = bytesFlushed;
        Duration = duration;
    }

    /// <summary>Bytes of device blocks written: the 4 KiB blocks the journal append touched, or the changed blocks written in place.</summary>
    public long BytesFlushed { get; }

    /// <summary>Wall time of the writes plus the fsync.</summary>
    public TimeSpan Duration { get; }
}
