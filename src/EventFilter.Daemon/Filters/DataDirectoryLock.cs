using EventFilter.Daemon.Formats;
using EventFilter.Storage;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// One daemon per data directory: the lock on <c>eventfilterd.lock</c> (a <see cref="LockFile"/>), held for the
/// process's life. Two daemons on one directory would interleave appends to the same digest logs.
/// </summary>
internal sealed class DataDirectoryLock(LockFile held) : IDisposable
{
    /// <summary>Takes the lock, or returns null with a one-line reason when another daemon holds it.</summary>
    public static DataDirectoryLock? TryAcquire(string dataDirectory, out string? reason)
    {
        Directory.CreateDirectory(dataDirectory);
        string path = Path.Combine(Path.GetFullPath(dataDirectory), DataLayout.LockFile);
        if (LockFile.TryAcquire(path, out LockFile? acquired, out IOException? refused))
        {
            reason = null;
            return new DataDirectoryLock(acquired);
        }

        reason = $"the data directory '{Path.GetFullPath(dataDirectory)}' is in use by another eventfilterd (it holds '{path}'): {refused.Message}";
        return null;
    }

    public void Dispose() => held.Dispose();
}
