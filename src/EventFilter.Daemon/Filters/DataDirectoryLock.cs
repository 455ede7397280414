using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// One daemon per data directory: an exclusive lock on <c>eventfilterd.lock</c>, held for the process's life. Two
/// daemons on one directory would interleave appends to the same digest logs. The kernel drops the lock when the
/// process dies, even by SIGKILL, so a crash never leaves the directory locked (the same scheme as the core's WriterLock).
/// </summary>
internal sealed class DataDirectoryLock : IDisposable
{
    private readonly FileStream _lock;

    private DataDirectoryLock(FileStream stream) => _lock = stream;

    /// <summary>Takes the lock, or returns null with a one-line reason when another daemon holds it.</summary>
    public static DataDirectoryLock? TryAcquire(string dataDirectory, out string? reason)
    {
        Directory.CreateDirectory(dataDirectory);
        string path = Path.Combine(Path.GetFullPath(dataDirectory), DataLayout.LockFile);
        try
        {
            reason = null;
            return new DataDirectoryLock(new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, bufferSize: 0));
        }
        catch (IOException e) when (File.Exists(path))
        {
            reason = $"the data directory '{Path.GetFullPath(dataDirectory)}' is in use by another eventfilterd (it holds '{path}'): {e.Message}";
            return null;
        }
    }

    public void Dispose() => _lock.Dispose();
}
