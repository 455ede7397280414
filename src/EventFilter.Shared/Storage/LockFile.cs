using System.Diagnostics.CodeAnalysis;

namespace EventFilter.Storage;

/// <summary>
/// An exclusive lock on a lock file, held until disposed: one writer per filter file, per data directory or per server,
/// across processes and within one. The holder decides what the lock guards and words the error when it is taken.
/// </summary>
/// <remarks>
/// On Unix, .NET implements FileShare.None as a non-blocking exclusive flock, which the kernel drops when the process
/// dies, even by SIGKILL, so a crash never leaves anything locked. A separate lock file (not the guarded file itself)
/// keeps read-only opens of a live file possible. The lock file is never deleted: deleting it could let two processes
/// lock two different files of one name.
/// </remarks>
internal sealed class LockFile : IDisposable
{
    private readonly FileStream _stream;

    private LockFile(FileStream stream) => _stream = stream;

    /// <summary>The lock file's path.</summary>
    public string Path => _stream.Name;

    /// <summary>
    /// Locks <paramref name="path"/>, creating the file (its directory must exist). Returns false when another holder has
    /// it, with the error that said so in <paramref name="held"/>; other failures (no such directory, no permission) throw.
    /// </summary>
    public static bool TryAcquire(string path, [NotNullWhen(true)] out LockFile? acquired, [NotNullWhen(false)] out IOException? held)
    {
        try
        {
            acquired = new LockFile(new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, bufferSize: 0));
            held = null;
            return true;
        }
        catch (IOException error) when (error is not FileNotFoundException and not DirectoryNotFoundException && File.Exists(path))
        {
            acquired = null;
            held = error;
            return false;
        }
    }

    /// <summary>Releases the lock.</summary>
    public void Dispose() => _stream.Dispose();
}
