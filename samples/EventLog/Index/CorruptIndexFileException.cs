namespace EventLog.Index;

/// <summary>
/// An index file that fails its checks on open. Index files are derived data: the engine drops them all and rebuilds the
/// index from the log, so this never reaches the caller of <c>EventLogEngine.Open</c>.
/// </summary>
internal sealed class CorruptIndexFileException : IOException
{
    public CorruptIndexFileException(string path, string reason)
        : base($"Index file '{path}' is corrupt: {reason}.")
    {
    }
}
