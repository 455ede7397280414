using EventLog.Errors;

namespace EventLog;

/// <summary>
/// One writer per directory: an exclusive lock on a lock file in it, held until disposed. The engine holds
/// <see cref="EngineFileName"/> while it is open, so a second engine on the same directory fails with
/// <see cref="DirectoryInUseException"/> before it touches the log; a host can lock a wider scope with its own file
/// (the server's <c>server.lock</c>, taken before its log files are opened).
/// </summary>
/// <remarks>
/// As the filter's WriterLock: on Unix, FileShare.None is a non-blocking exclusive flock that the kernel releases when
/// the process dies, even by SIGKILL, so a crash never leaves the directory locked. The file is never deleted.
/// </remarks>
public sealed class DirectoryLock : IDisposable
{
    /// <summary>The engine's lock file, in its data directory.</summary>
    public const string EngineFileName = "eventlog.lock";

    private readonly FileStream _lock;

    private DirectoryLock(FileStream stream) => _lock = stream;

    /// <summary>Creates <paramref name="directory"/> if needed and locks <paramref name="fileName"/> in it.</summary>
    /// <param name="directory">The directory to lock.</param>
    /// <param name="fileName">The lock file's name in it.</param>
    /// <param name="holder">Who holds it, for the error: "server", "event log engine".</param>
    /// <exception cref="DirectoryInUseException">The lock is held.</exception>
    /// <exception cref="IOException">The directory or the file cannot be created.</exception>
    public static DirectoryLock Acquire(string directory, string fileName, string holder)
    {
        Directory.CreateDirectory(directory);
        string path = Path.Combine(directory, fileName);
        try
        {
            return new DirectoryLock(new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, bufferSize: 0));
        }
        catch (IOException held) when (held is not FileNotFoundException and not DirectoryNotFoundException && File.Exists(path))
        {
            throw new DirectoryInUseException(directory, path, holder, held);
        }
    }

    /// <summary>Releases the lock.</summary>
    public void Dispose() => _lock.Dispose();
}
