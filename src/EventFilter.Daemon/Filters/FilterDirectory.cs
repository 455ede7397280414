using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Makes a named filter's directory and digest log: empty (with its key file first for a long key), or holding the
/// items a pending filter held. Nothing is fsynced but the key file: the filter's first checkpoint makes the rest
/// durable (docs/daemon-design.md, "Durability").
/// </summary>
internal static class FilterDirectory
{
    public static string LogPath(string directory) => Path.Combine(directory, DataLayout.DigestLogFile);

    /// <summary>The directory and an empty log (its descriptor drawn from <paramref name="claim"/>); a long key's <c>key</c> file first, fsynced.</summary>
    public static DigestLog Create(string directory, byte[] key, FilterParameters parameters, DescriptorClaim claim)
    {
        Directory.CreateDirectory(directory);
        if (!KeyNames.IsHexNamed(key.Length))
        {
            // Before the log, and fsynced: a log whose key is not on the disk would be a filter without a name.
            WriteKeyFile(Path.Combine(directory, DataLayout.KeyFile), key);
        }

        return DigestLog.Create(LogPath(directory), parameters, claim);
    }

    /// <summary>
    /// The directory and a log holding <paramref name="held"/>: made in a ".tmp" directory, then renamed into place, so
    /// that a crash leaves either no directory (the control log's records bring the items back) or one whose log has
    /// them all: a start takes a filter's directory over its records. Only a hex-named filter holds items: a long
    /// key's has its files from its create.
    /// </summary>
    public static DigestLog CreateHolding(string directory, FilterParameters parameters, ReadOnlySpan<ulong> held, DescriptorClaim claim)
    {
        string staging = $"{directory}.held{DataLayout.CreatingSuffix}";
        if (Directory.Exists(staging))
        {
            Directory.Delete(staging, recursive: true); // left by a tick that failed before its rename
        }

        Directory.CreateDirectory(staging);
        int owed = Math.Min(claim.Remaining, 1);
        DigestLog log = DigestLog.Create(LogPath(staging), parameters, claim);
        try
        {
            log.Append(held);
            Directory.Move(staging, directory); // the open log follows its inode
            return log;
        }
        catch
        {
            log.Dispose();
            claim.Return(owed); // the pending filter still owes its log
            throw;
        }
    }

    private static void WriteKeyFile(string path, byte[] key)
    {
        using var file = new FileStream(path, FileMode.CreateNew, FileAccess.Write);
        file.Write(KeyFileFormat.Write(key));
        file.Flush(flushToDisk: true);
    }
}
