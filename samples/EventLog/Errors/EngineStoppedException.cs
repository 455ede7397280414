namespace EventLog.Errors;

/// <summary>
/// The engine takes no more appends: it was disposed, not started, or stopped after a failure it cannot recover from in
/// place (a failed write or fsync; the inner exception says which). Reopen it: recovery repairs the log.
/// </summary>
public sealed class EngineStoppedException : InvalidOperationException
{
    /// <summary>Creates the error.</summary>
    public EngineStoppedException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
