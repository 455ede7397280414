namespace EventLog.Server.Hosting;

/// <summary>
/// One server per data directory: an exclusive lock on <c>server.lock</c>, taken before the engine opens the log.
/// The engine takes no lock of its own, and opening a log cuts its torn tail: a second server would cut off the first
/// one's append in flight. The filter's own lock comes too late to stop that (the engine opens first).
/// </summary>
/// <remarks>
/// As the filter's WriterLock: on Unix, FileShare.None is a non-blocking exclusive flock that the kernel releases
/// when the process dies, even by SIGKILL, so a crash never leaves the directory locked. The file is never deleted.
/// </remarks>
internal sealed class DataDirectoryLock : IDisposable
{
    public const string FileName = "server.lock";

    private readonly FileStream _lock;

    private DataDirectoryLock(FileStream stream) => _lock = stream;

    /// <exception cref="IOException">Another server holds the directory (the message says so), or it cannot be created.</exception>
    public static DataDirectoryLock Acquire(string dataDirectory)
    {
        Directory.CreateDirectory(dataDirectory);
        string path = Path.Combine(dataDirectory, FileName);
        try
        {
            return new DataDirectoryLock(new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, bufferSize: 0));
        }
        catch (IOException held) when (held is not FileNotFoundException and not DirectoryNotFoundException && File.Exists(path))
        {
            throw new IOException($"The data directory '{dataDirectory}' is in use by another server: '{path}' is locked.", held);
        }
    }

    public void Dispose() => _lock.Dispose();
}
