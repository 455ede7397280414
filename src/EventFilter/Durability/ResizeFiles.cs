using EventFilter.Format;
using EventFilter.Storage;

namespace EventFilter.Durability;

/// <summary>
/// The files of a resize: the new filter is built at <c>&lt;filter&gt;.resize</c> with its own checkpoint, and swapped in
/// by two renames. Whatever a crash interrupts, one consistent filter remains. See docs/design.md, section "Resize".
/// </summary>
internal static class ResizeFiles
{
    public static string PathFor(string filterPath) => filterPath + ".resize";

    /// <summary>
    /// Renames the caught-up resize file and then its checkpoint over the old ones. A crash between the two renames
    /// leaves the new filter with the old filter's checkpoint: its file id does not match, so it is ignored (a full,
    /// safe catch-up), unless <see cref="RecoverInterruptedSwap"/> finishes the second rename first.
    /// </summary>
    public static void Swap(string filterPath)
    {
        string resizePath = PathFor(filterPath);
        string directory = Path.GetDirectoryName(Path.GetFullPath(filterPath))!;
        File.Move(resizePath, filterPath, overwrite: true);
        DurableDirectory.Sync(directory);
        File.Move(CheckpointFile.PathFor(resizePath), CheckpointFile.PathFor(filterPath), overwrite: true);
        DurableDirectory.Sync(directory);
    }

    /// <summary>On open: finish a swap that a crash stopped between its renames.</summary>
    public static void RecoverInterruptedSwap(string filterPath)
    {
        string resizePath = PathFor(filterPath);
        string orphan = CheckpointFile.PathFor(resizePath);
        if (File.Exists(resizePath) || !File.Exists(orphan) || !File.Exists(filterPath))
        {
            return;
        }

        try
        {
            Checkpoint? checkpoint = CheckpointFile.TryRead(orphan);
            using FilterFile current = FilterFile.OpenExisting(filterPath);
            if (checkpoint?.FilterFileId == current.Header.FileId)
            {
                File.Move(orphan, CheckpointFile.PathFor(filterPath), overwrite: true);
                DurableDirectory.Sync(Path.GetDirectoryName(Path.GetFullPath(filterPath))!);
                return;
            }
        }
        catch (FilterFileException)
        {
            // An unreadable orphan or filter: the normal open sequence deals with the filter; the orphan just goes.
        }

        CheckpointFile.Delete(orphan);
    }

    /// <summary>Removes a resize that is no longer wanted (the size was set back), or is for another size.</summary>
    public static void Discard(string filterPath)
    {
        string resizePath = PathFor(filterPath);
        CheckpointFile.Delete(CheckpointFile.PathFor(resizePath));
        Journal.JournalFiles.Delete(resizePath);
        if (File.Exists(resizePath))
        {
            File.Delete(resizePath);
        }
    }

    /// <summary>True when a resize file exists and was made for <paramref name="sizeBytes"/>, so it can be resumed.</summary>
    public static bool CanResume(string filterPath, long sizeBytes)
    {
        string resizePath = PathFor(filterPath);
        if (!File.Exists(resizePath))
        {
            return false;
        }

        try
        {
            using FilterFile existing = FilterFile.OpenExisting(resizePath);
            // A resize file of the size's earlier meaning (the file's length) is not resumed: a new one is built.
            return existing.Header.SizeBytes == sizeBytes && existing.Header.Geometry == FilterGeometry.FromFilterBits(sizeBytes);
        }
        catch (FilterFileException)
        {
            return false;
        }
    }
}
