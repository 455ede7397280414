namespace EventLog.Errors;

/// <summary>
/// The log holds bytes that are not a valid record where a durable record must be (a torn tail is repaired on start and is
/// not this error). Always names the file and position.
/// </summary>
public sealed class CorruptLogException : IOException
{
    /// <summary>Creates the error.</summary>
    public CorruptLogException(string path, long logPosition, string reason)
        : base($"Log segment '{path}' is corrupt at log position {logPosition}: {reason}.")
    {
        FilePath = path;
        LogPosition = logPosition;
    }

    /// <summary>The segment file at fault.</summary>
    public string FilePath { get; }

    /// <summary>The global log position of the bad record.</summary>
    public long LogPosition { get; }
}
