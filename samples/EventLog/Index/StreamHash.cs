namespace EventLog.Index;

/// <summary>
/// The 64-bit hash of a stream name's UTF-8 bytes that keys the index and feeds each index file's Bloom filter
/// (<c>FilterFile.AddHash</c>: the high half picks the line, the low half the probes, so both halves are fully mixed).
/// XXH3-64 with seed 0 from System.IO.Hashing: stable across runs and machines, as it must be, because index files
/// store it (index format version 2; version 1 files used an earlier hash and are rebuilt from the log on open).
/// Two names with one hash are told apart by reading the log record the entry points to.
/// </summary>
internal static class StreamHash
{
    /// <summary>Hashes a name's UTF-8 bytes.</summary>
    public static ulong Of(ReadOnlySpan<byte> utf8Name) => System.IO.Hashing.XxHash3.HashToUInt64(utf8Name);
}
