namespace EventLog.Errors;

/// <summary>
/// Another process (or another engine in this one) holds the directory's lock file: two writers would cut each
/// other's torn tails and interleave their appends. Names the directory, the lock file and who is expected to hold it.
/// </summary>
public sealed class DirectoryInUseException : IOException
{
    /// <summary>Creates the error.</summary>
    public DirectoryInUseException(string directory, string lockPath, string holder, Exception? inner = null)
        : base($"The data directory '{directory}' is in use by another {holder}: '{lockPath}' is locked.", inner)
    {
        Directory = directory;
        LockPath = lockPath;
    }

    /// <summary>The directory that is in use.</summary>
    public string Directory { get; }

    /// <summary>The lock file another holder has.</summary>
    public string LockPath { get; }
}
