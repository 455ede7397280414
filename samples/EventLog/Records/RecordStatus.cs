namespace EventLog.Records;

/// <summary>What a buffer holds at a record boundary.</summary>
internal enum RecordStatus
{
    /// <summary>A whole record whose checksum matches.</summary>
    Valid,

    /// <summary>The buffer ends before the record does (read more, or at the log's end: a torn tail).</summary>
    Incomplete,

    /// <summary>Not a record: lengths that do not add up, or a checksum mismatch.</summary>
    Invalid,
}
