namespace EventFilter.Cli.Commands;

/// <summary>
/// Refuses to repair a file another process has open, such as a running server. On Unix, .NET takes a shared
/// advisory lock (flock) for every open that allows sharing, the server's included, and an exclusive one only for
/// FileShare.None; so an exclusive open that succeeds means nobody else has the file open right now. Sharing modes
/// are not otherwise enforced between processes on Unix, which is why the writable open alone does not catch this.
/// </summary>
internal static class ExclusiveUse
{
    /// <exception cref="IOException">Another process has the file open.</exception>
    public static void EnsureNoOtherUser(string path)
    {
        try
        {
            using var probe = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.None, bufferSize: 0);
        }
        catch (IOException inUse) when (inUse is not FileNotFoundException and not DirectoryNotFoundException)
        {
            throw new IOException($"Filter file '{path}' is open in another process (is the server running?); stop it before repairing.", inUse);
        }
    }
}
