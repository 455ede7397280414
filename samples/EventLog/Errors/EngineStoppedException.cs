namespace EventLog.Errors;

/// <summary>
/// The engine takes no more appends, and nothing of this one was written: it was disposed, not started, or stopped after
/// a failure it does not recover from in place (a failed write or fsync, the inner exception says which; the failed
/// commit was cut back first). Reopen it: recovery checks the log.
/// </summary>
public sealed class EngineStoppedException : InvalidOperationException
{
    /// <summary>Creates the error.</summary>
    public EngineStoppedException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
