namespace EventLog;

/// <summary>What opening the index found.</summary>
/// <param name="Files">Index files in use.</param>
/// <param name="IndexedTo">Every log record before this position is in the files; the rest is replayed from the log.</param>
/// <param name="DiscardedReason">Why every index file was dropped to be rebuilt from the log; null when they were kept.</param>
/// <param name="ReplayedRecords">Log records replayed into the memtable, from <paramref name="IndexedTo"/> to the log's end.</param>
public readonly record struct IndexRecovery(int Files, long IndexedTo, string? DiscardedReason, long ReplayedRecords = 0);
