namespace EventFilter.Errors;

/// <summary>The file's length on disk is not what its header says: it was truncated or extended.</summary>
internal sealed class FilterFileLengthException : FilterFileException
{
    /// <summary>Creates the error.</summary>
    internal FilterFileLengthException(string path, long actualLength, long expectedLength)
        : base(path, $"it is {actualLength} bytes long but its header describes {expectedLength} bytes ({(actualLength < expectedLength ? "truncated" : "extended")}); delete it and its checkpoint, and the filter is rebuilt from the log at the next start")
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
