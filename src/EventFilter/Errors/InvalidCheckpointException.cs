namespace EventFilter.Errors;

/// <summary>The checkpoint file exists but cannot be trusted. Callers treat it as "no position" and catch up from the start.</summary>
internal sealed class InvalidCheckpointException : FilterFileException
{
    /// <summary>Creates the error.</summary>
    internal InvalidCheckpointException(string path, string reason)
        : base(path, $"invalid checkpoint: {reason}")
    {
    }
}
