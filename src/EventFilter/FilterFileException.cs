namespace EventFilter;

/// <summary>Base of every error about a filter file's content; always names the file.</summary>
public abstract class FilterFileException : IOException
{
    /// <summary>Creates the error.</summary>
    private protected FilterFileException(string path, string message, Exception? inner = null)
        : base($"Filter file '{path}': {message}.", inner)
    {
        FilePath = path;
    }

    /// <summary>The file at fault.</summary>
    internal string FilePath { get; }
}
