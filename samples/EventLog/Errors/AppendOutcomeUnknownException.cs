namespace EventLog.Errors;

/// <summary>
/// The append's records were handed to the disk, the write or fsync failed, and cutting the log back to its last
/// acknowledged append failed too: the append may or may not be in the log after a restart. Not a refusal: read the
/// stream once the engine is restarted to find out. The engine takes no more appends until then.
/// </summary>
public sealed class AppendOutcomeUnknownException : IOException
{
    /// <summary>Creates the error.</summary>
    public AppendOutcomeUnknownException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
