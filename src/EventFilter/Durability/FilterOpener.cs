
using EventFilter.Errors;

namespace EventFilter.Durability;

/// <summary>
/// Steps 1 and 2 of the open sequence (docs/design.md, "Open sequence"): open and verify the file, or build an empty
/// one when it is missing, unreadable or too corrupted; then find where catch-up must start.
/// </summary>
internal static class FilterOpener
{
    /// <summary>
    /// Opens <paramref name="path"/> as a filter of <paramref name="open"/>'s size. Anything unusable is replaced by an
    /// empty file of <paramref name="rebuild"/>'s size. A file of another size throws <see cref="FilterSizeMismatchException"/>.
    /// </summary>
    public static CheckpointedFilter OpenOrRebuild(string path, FilterFileOptions open, FilterFileOptions rebuild, long logEnd, FilterObserver observer)
    {
        string checkpointPath = CheckpointFile.PathFor(path);
        FilterFile? file = null;
        if (!System.IO.File.Exists(path))
        {
            file = Rebuild(path, checkpointPath, rebuild, RebuildReason.Missing, "there is no filter file", observer);
        }
        else
        {
            try
            {
                file = FilterFile.Open(path, open);
            }
            catch (InvalidFilterHeaderException e)
            {
                file = Rebuild(path, checkpointPath, rebuild, RebuildReason.InvalidHeader, e.Message, observer);
            }
            catch (FilterFileLengthException e)
            {
                file = Rebuild(path, checkpointPath, rebuild, RebuildReason.WrongLength, e.Message, observer);
            }

            if (file.RebuildRequired)
            {
                string detail = $"{file.Verification.CorruptedLines} of {file.Verification.LinesChecked} lines corrupted ({file.Verification.CorruptedFraction:P2}), above the threshold of {open.CorruptionThreshold:P2}";
                file.Dispose();
                file = Rebuild(path, checkpointPath, rebuild, RebuildReason.TooCorrupted, detail, observer);
            }
        }

        observer.Opened(path, file.Created, file.Verification);
        if (file.PendingJournal.Damage is { } damage)
        {
            observer.JournalDamaged(path, damage);
        }

        var filter = new CheckpointedFilter(file, StartPosition(file, checkpointPath, logEnd, observer), observer);
        if (filter.DurablePosition > logEnd)
        {
            // The log is shorter than the checkpoint claims: it lost its tail while we were stopped.
            filter.RewindTo(logEnd);
        }

        return filter;
    }

    private static FilterFile Rebuild(string path, string checkpointPath, FilterFileOptions options, RebuildReason reason, string detail, FilterObserver observer)
    {
        observer.RebuildStarted(path, reason, detail);

        // The old checkpoint goes first; the new file's id would make it stale anyway, but an absent one is clearer.
        CheckpointFile.Delete(checkpointPath);
        return FilterFile.Create(path, options);
    }

    private static long StartPosition(FilterFile file, string checkpointPath, long logEnd, FilterObserver observer)
    {
        // The journal's last commit is bound to this file by its header and is at least as new as the checkpoint file
        // (which a fold writes from it); when the open could fold it, the two agree.
        if (file.CommittedPosition is { } committed)
        {
            return committed;
        }

        Checkpoint? checkpoint;
        try
        {
            checkpoint = CheckpointFile.TryRead(checkpointPath);
        }
        catch (InvalidCheckpointException e)
        {
            observer.CheckpointIgnored(file.Path, e.Message);
            return 0;
        }

        if (checkpoint is null)
        {
            if (!file.Created && logEnd > 0)
            {
                observer.CheckpointIgnored(file.Path, $"there is no checkpoint file '{checkpointPath}'");
            }

            return 0;
        }

        if (checkpoint.FilterFileId != file.Header.FileId)
        {
            observer.CheckpointIgnored(file.Path, $"the checkpoint belongs to filter file {checkpoint.FilterFileId}, not {file.Header.FileId}");
            return 0;
        }

        return checkpoint.Position;
    }
}
