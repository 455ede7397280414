namespace EventLog.Errors;

/// <summary>A stream name the engine cannot store: empty, longer than 1,000 UTF-8 bytes, or not valid Unicode. Nothing was written.</summary>
public sealed class InvalidStreamNameException : ArgumentException
{
    /// <summary>Creates the error.</summary>
    public InvalidStreamNameException(string? streamName, string reason)
        : base($"Invalid stream name: {reason}.", "streamName")
    {
        StreamName = streamName;
        Reason = reason;
    }

    /// <summary>The name given (may be null or empty).</summary>
    public string? StreamName { get; }

    /// <summary>Why it was rejected.</summary>
    public string Reason { get; }
}
