namespace EventFilter.Storage;

/// <summary>
/// One writer per filter file, across processes: an exclusive lock on <c>&lt;filter&gt;.lock</c>, held while the file is
/// open for writing. Two servers on one data directory would otherwise let one's checkpoint vouch for names only the
/// other added. A separate lock file (not the filter itself) keeps read-only opens of a live filter possible.
/// </summary>
/// <remarks>
/// On Unix, .NET implements FileShare.None as a non-blocking exclusive flock, which the kernel drops when the process
/// dies, even by SIGKILL. The lock file is never deleted: deleting it could let two processes lock two different files.
/// The lock goes with the name, not the file: a resize swap renames <c>….resize</c> over the filter, and the file
/// renamed takes over the filter's lock and releases <c>….resize.lock</c> (<see cref="MappedFile.TakeOverWriterLock"/>).
/// </remarks>
internal sealed class WriterLock : IDisposable
{
    private readonly FileStream _lock;

    private WriterLock(FileStream stream) => _lock = stream;

    public static string PathFor(string filterPath) => filterPath + ".lock";

    /// <exception cref="FilterFileInUseException">Another process, or another open in this one, holds the lock.</exception>
    public static WriterLock Acquire(string filterPath)
    {
        string path = PathFor(filterPath);
        try
        {
            return new WriterLock(new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, bufferSize: 0));
        }
        catch (IOException held) when (held is not FileNotFoundException and not DirectoryNotFoundException && File.Exists(path))
        {
            throw new FilterFileInUseException(filterPath, held);
        }
    }

    public void Dispose() => _lock.Dispose();
}
