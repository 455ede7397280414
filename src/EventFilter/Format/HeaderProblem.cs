namespace EventFilter.Format;

/// <summary>Why a header was rejected.</summary>
internal enum HeaderProblem
{
    /// <summary>The file is shorter than a header.</summary>
    Truncated,

    /// <summary>The first 8 bytes are not "EVFILTER".</summary>
    BadMagic,

    /// <summary>The header's checksum does not match its bytes.</summary>
    BadChecksum,

    /// <summary>A format version this build does not read.</summary>
    UnsupportedVersion,

    /// <summary>A field is out of range, or two fields disagree.</summary>
    BadField,
}
