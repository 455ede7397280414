using EventFilter.Errors;
using EventFilter.Storage;

namespace EventFilter;

/// <summary>
/// The checkpoint file beside a filter file (<c>&lt;filter&gt;.checkpoint</c>). Written atomically and durably:
/// the record goes to a temporary file, which is fsynced, renamed over the old one, and the directory fsynced.
/// A crash leaves the old checkpoint or the new one, never a torn one. See docs/design.md, section "Durability protocol".
/// </summary>
public static class CheckpointFile
{
    /// <summary>The checkpoint path for a filter file.</summary>
    public static string PathFor(string filterPath) => filterPath + ".checkpoint";

    /// <summary>Reads the checkpoint; null when there is none.</summary>
    /// <exception cref="InvalidCheckpointException">The file exists but is not a valid checkpoint.</exception>
    public static Checkpoint? TryRead(string path)
    {
        byte[] bytes;
        try
        {
            bytes = File.ReadAllBytes(path);
        }
        catch (FileNotFoundException)
        {
            return null;
        }

        return Checkpoint.Read(bytes, path);
    }

    /// <summary>Replaces the checkpoint durably. Call only after the filter's data covering the position is flushed.</summary>
    internal static void Write(string path, Checkpoint checkpoint)
    {
        Span<byte> record = stackalloc byte[Checkpoint.Length];
        checkpoint.WriteTo(record);
        string temporary = path + ".tmp";
        using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 0))
        {
            stream.Write(record);
            stream.Flush(flushToDisk: true);
        }

        File.Move(temporary, path, overwrite: true);
        DurableDirectory.Sync(Path.GetDirectoryName(Path.GetFullPath(path))!);
    }

    /// <summary>Removes the checkpoint durably (used when the filter it vouched for is replaced).</summary>
    internal static void Delete(string path)
    {
        if (File.Exists(path))
        {
            File.Delete(path);
            DurableDirectory.Sync(Path.GetDirectoryName(Path.GetFullPath(path))!);
        }
    }
}
