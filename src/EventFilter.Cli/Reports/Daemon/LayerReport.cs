using EventFilter.Cli.Output;
using EventFilter.Cli.Progress;
using EventFilter.Daemon.Formats;

namespace EventFilter.Cli.Reports.Daemon;

/// <summary>
/// One layer of a named filter: the items of the digest log it holds, its file as `inspect FILE` sees it, and how far
/// catch-up would go at the next start: from where the file's journal or checkpoint says it is durable (the start of
/// its range when the file would be rebuilt) to the log's end, within the layer's range (FilterLayer.CatchUp).
/// </summary>
/// <param name="Status"><see cref="Ready"/>, <see cref="Missing"/>, <see cref="Unreadable"/> or <see cref="RebuildRequired"/>: all but the first are rebuilt from the digest log at the next start.</param>
/// <param name="FirstItem">Index in the digest log of the first item this layer holds.</param>
/// <param name="Capacity">Items it holds before the next layer opens.</param>
/// <param name="ErrorRate">Its target false-positive rate at capacity.</param>
/// <param name="ItemsInLog">Items of the digest log in its range.</param>
/// <param name="CatchUpFrom">The log position catch-up would start from.</param>
/// <param name="CatchUpItems">Items catch-up would add to the file at the next start.</param>
internal sealed record LayerReport(
    int Index,
    string Path,
    string Status,
    long FirstItem,
    long Capacity,
    double ErrorRate,
    long ItemsInLog,
    long? SizeBytes,
    int? K,
    int? LinesPerKey,
    double? FillRatio,
    long? EstimatedItems,
    double? EstimatedFalsePositiveRate,
    string? Integrity,
    CheckpointReport? Checkpoint,
    JournalReport? Journal,
    long CatchUpFrom,
    long CatchUpItems,
    string? Problem)
{
    public const string Ready = "ready";
    public const string Missing = "missing";
    public const string Unreadable = "unreadable";
    public const string RebuildRequired = "rebuild-required";

    public static LayerReport Read(CliConsole console, string filterDirectory, int index, FilterParameters parameters, DigestLogReport log, double threshold)
    {
        string path = System.IO.Path.Combine(filterDirectory, DataLayout.LayerFile(index));
        long first = parameters.LayerStart(index);
        long capacity = parameters.LayerCapacity(index);
        var layer = new LayerReport(
            index, path, Missing, first, capacity, parameters.LayerErrorRate(index), Math.Clamp(log.Items - first, 0, capacity),
            null, null, null, null, null, null, null, null, null, 0, 0, "no layer file: it is rebuilt from the digest log at the next start");
        if (!File.Exists(path))
        {
            return layer.CatchingUpFrom(0, log.EndPosition);
        }

        try
        {
            using FilterFile file = FilterFile.OpenExisting(path);
            VerificationResult verification = ProgressDisplay.Verify(console, $"inspect {System.IO.Path.GetFileName(filterDirectory)}/{System.IO.Path.GetFileName(path)}", file, repair: false, threshold);
            FilterStatistics statistics = file.ComputeStatistics();
            CheckpointReport? checkpoint = CheckpointReport.ReadBeside(path, file.Header.FileId);
            var journal = JournalReport.From(file.PendingJournal);
            bool rebuild = verification.RebuildRequired;

            // The open sequence's start (FilterOpener): the journal's last commit, else a current checkpoint, else 0.
            long durable = rebuild ? 0 : journal.Position ?? (checkpoint is { Status: CheckpointReport.Current, Position: { } position } ? position : 0);
            layer = layer with
            {
                Status = rebuild ? RebuildRequired : Ready,
                SizeBytes = file.Header.SizeBytes,
                K = file.Header.K,
                LinesPerKey = file.Header.LinesPerKey,
                FillRatio = statistics.FillRatio,
                EstimatedItems = (long)Math.Round(statistics.EstimatedNames),
                EstimatedFalsePositiveRate = statistics.EstimatedFalsePositiveRate,
                Integrity = IntegrityVerdict.Status(verification),
                Checkpoint = checkpoint,
                Journal = journal,
                Problem = rebuild ? "too many corrupted lines: it is rebuilt from the digest log at the next start" : null,
            };
            return layer.CatchingUpFrom(durable, log.EndPosition);
        }
        catch (FilterFileException unusable)
        {
            // A bad header or length: the open sequence replaces the file with an empty one and catches it up.
            return (layer with { Status = Unreadable, Problem = $"{unusable.Message} It is rebuilt from the digest log at the next start." }).CatchingUpFrom(0, log.EndPosition);
        }
    }

    /// <summary>The text lines for it.</summary>
    public void WriteText(TextWriter output)
    {
        string file = SizeBytes is { } size ? $"{System.IO.Path.GetFileName(Path)}, {TextFormat.Bytes(size)}, k {K}{(LinesPerKey > 1 ? $" over {LinesPerKey} lines" : "")}" : System.IO.Path.GetFileName(Path);
        output.WriteLine($"  layer {Index,-8} {file}: items {TextFormat.Count(FirstItem)} to {TextFormat.Count(FirstItem + Capacity - 1)} at {TextFormat.Percent(ErrorRate)}, {TextFormat.Count(ItemsInLog)} in the log");
        if (Status is Ready or RebuildRequired)
        {
            output.WriteLine($"    fill         {TextFormat.Percent(FillRatio ?? 0)} of bits set, ~{TextFormat.Count(EstimatedItems ?? 0)} items estimated, {TextFormat.Percent(EstimatedFalsePositiveRate ?? 0)} false positives now; integrity {Integrity}");
            output.WriteLine($"    checkpoint   {CheckpointReport.Describe(Checkpoint)}; journal {Journal!.Describe()}");
        }

        if (Problem is not null)
        {
            output.WriteLine($"    {Status.ToUpperInvariant()}: {Problem}");
        }

        output.WriteLine($"    catch-up     from position {TextFormat.Count(CatchUpFrom)}: {TextFormat.Count(CatchUpItems)} items to add at the next start");
    }

    // FilterLayer.CatchUp: from the durable position (never past the log's end, as the open rewinds it) to the log's
    // end, both within this layer's range of the log.
    private LayerReport CatchingUpFrom(long durable, long logEnd)
    {
        long from = Math.Max(Math.Min(durable, logEnd), DigestLogFormat.PositionOf(FirstItem));
        long to = Math.Min(logEnd, DigestLogFormat.PositionOf(FirstItem + Capacity));
        return this with { CatchUpFrom = from, CatchUpItems = Math.Max(0, to - from) / DigestLogFormat.RecordLength };
    }
}
