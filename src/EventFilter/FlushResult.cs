namespace EventFilter;

/// <summary>What one flush made durable.</summary>
/// <param name="BytesFlushed">Bytes of pages that adds had changed since the previous flush (a page is counted once however many lines changed on it).</param>
/// <param name="Duration">Wall time of msync plus fsync.</param>
public readonly record struct FlushResult(long BytesFlushed, TimeSpan Duration);
