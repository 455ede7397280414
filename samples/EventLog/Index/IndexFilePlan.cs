namespace EventLog.Index;

/// <summary>What an index file about to be written will be.</summary>
/// <param name="Id">Its number: the next in sequence.</param>
/// <param name="Level">0 for a flushed memtable; one more than its inputs' for a merge.</param>
/// <param name="FromPosition">The first log position it covers.</param>
/// <param name="ToPosition">Just past the last log position it covers.</param>
/// <param name="EntryCount">Exactly how many entries will be written.</param>
/// <param name="StreamsAtMost">An upper bound of the distinct streams, to size the Bloom filter before writing.</param>
internal readonly record struct IndexFilePlan(long Id, int Level, long FromPosition, long ToPosition, long EntryCount, long StreamsAtMost);
