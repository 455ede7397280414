namespace EventFilter;

/// <summary>The filter file is already open for writing, by another process or another open in this one.</summary>
public sealed class FilterFileInUseException : FilterFileException
{
    /// <summary>Creates the error.</summary>
    internal FilterFileInUseException(string path, Exception inner)
        : base(path, "it is already open for writing (is another server using this data directory?)", inner)
    {
    }
}
