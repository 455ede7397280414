using EventFilter.Blocked;
using EventFilter.Integrity;

namespace EventFilter;

/// <summary>The filter file's verification: every line's checksum checked, on every core (docs/design.md, "Verification").</summary>
public sealed unsafe partial class FilterFile
{
    /// <summary>
    /// Verifies every line now; with <paramref name="repair"/>, sets mismatched lines to all ones and folds them,
    /// with any journal, into the file.
    /// </summary>
    public VerificationResult Verify(bool repair, double threshold = FilterFileOptions.DefaultCorruptionThreshold, IProgress<long>? progress = null)
    {
        if (repair)
        {
            ThrowIfReadOnly();
        }

        VerificationResult result = ScanLines(repair, threshold, progress, repair ? _journal.ChangedLines : null);
        if (repair && (result.RepairedLines > 0 || PendingJournal.Files > 0))
        {
            FoldJournal();
        }

        Verification = result;
        return result;
    }

    /// <summary>Checks every line on every core, the mapping marked as read in order meanwhile (docs/design.md, "Verification").</summary>
    private VerificationResult ScanLines(bool repair, double threshold, IProgress<long>? progress, AtomicBitmap? repairedLines)
    {
        _file.AdviseSequential(true);
        try
        {
            return LineVerifier.Scan(_lines.Lines, LineCount, repair, threshold, progress, repairedLines);
        }
        finally
        {
            _file.AdviseSequential(false); // lookups and adds are random: the kernel's default read-around suits them
        }
    }
}
