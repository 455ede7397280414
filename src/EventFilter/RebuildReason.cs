namespace EventFilter;

/// <summary>Why a filter file is being rebuilt from the log.</summary>
public enum RebuildReason
{
    /// <summary>There was no filter file (first start, or it was deleted).</summary>
    Missing,

    /// <summary>The header was unreadable: wrong magic, version or checksum.</summary>
    InvalidHeader,

    /// <summary>The file was truncated or extended.</summary>
    WrongLength,

    /// <summary>More than the corruption threshold of lines were corrupted.</summary>
    TooCorrupted,

    /// <summary>More than the all-ones threshold of lines were all ones: rebuilt online, the old file serving meanwhile.</summary>
    AllOnesLines,

    /// <summary>An operator asked for an online rebuild (<see cref="StreamExistenceFilter.RebuildAsync"/>).</summary>
    Requested,
}
