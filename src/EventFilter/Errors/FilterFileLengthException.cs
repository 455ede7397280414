namespace EventFilter;

/// <summary>The file's length on disk is not what its header says: it was truncated or extended.</summary>
public sealed class FilterFileLengthException : FilterFileException
{
    /// <summary>Creates the error.</summary>
    public FilterFileLengthException(string path, long actualLength, long expectedLength)
        : base(path, $"it is {actualLength} bytes long but its header describes {expectedLength} bytes ({(actualLength < expectedLength ? "truncated" : "extended")})")
    {
        ActualLength = actualLength;
        ExpectedLength = expectedLength;
    }

    /// <summary>Length on disk.</summary>
    public long ActualLength { get; }

    /// <summary>Length the header implies.</summary>
    public long ExpectedLength { get; }

    /// <summary>True when the file is shorter than it should be.</summary>
    public bool IsTruncated => ActualLength < ExpectedLength;
}
