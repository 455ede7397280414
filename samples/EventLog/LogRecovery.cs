namespace EventLog;

/// <summary>What opening the log found.</summary>
/// <param name="Segments">Segment files in the log.</param>
/// <param name="End">The log's end after recovery: every record before it is whole and checked.</param>
/// <param name="TruncatedBytes">Bytes cut from the last segment: a torn or incomplete append from a crash. 0 on a clean start.</param>
public readonly record struct LogRecovery(int Segments, long End, long TruncatedBytes);
