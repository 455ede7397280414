using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports;

/// <summary>
/// The checkpoint file beside a filter: the log position it claims, and whether that claim is about this file.
/// A checkpoint names the filter's FileId; one naming another id was left behind by an earlier (rebuilt) file.
/// </summary>
/// <param name="Path">The checkpoint file's path.</param>
/// <param name="Status"><see cref="Current"/>, <see cref="Stale"/> or <see cref="Invalid"/>.</param>
/// <param name="Position">The log position covered; null when the file could not be read.</param>
/// <param name="FilterFileId">The filter file id the checkpoint names; null when the file could not be read.</param>
/// <param name="Problem">Why the checkpoint is stale or invalid; null when it is current.</param>
internal sealed record CheckpointReport(string Path, string Status, long? Position, Guid? FilterFileId, string? Problem)
{
    public const string Current = "current";
    public const string Stale = "stale";
    public const string Invalid = "invalid";

    /// <summary>Reads the checkpoint beside <paramref name="filterPath"/>; null when there is none. Never writes.</summary>
    public static CheckpointReport? ReadBeside(string filterPath, Guid filterFileId)
    {
        string path = CheckpointFile.PathFor(filterPath);
        Checkpoint? checkpoint;
        try
        {
            checkpoint = CheckpointFile.TryRead(path);
        }
        catch (FilterFileException invalid)
        {
            return new CheckpointReport(path, Invalid, null, null, invalid.Message);
        }

        if (checkpoint is not { } found)
        {
            return null;
        }

        return found.FilterFileId == filterFileId
            ? new CheckpointReport(path, Current, found.Position, found.FilterFileId, null)
            : new CheckpointReport(path, Stale, found.Position, found.FilterFileId, $"Checkpoint '{path}' names filter file id {found.FilterFileId}, not this file's {filterFileId}: it was written for an earlier file and does not apply to this one.");
    }

    /// <summary>The text line for it.</summary>
    public static string Describe(CheckpointReport? checkpoint) => checkpoint switch
    {
        null => "none (no checkpoint file beside the filter)",
        { Status: Current } => $"position {TextFormat.Count(checkpoint.Position ?? 0)} (current)",
        { Status: Stale } => $"position {TextFormat.Count(checkpoint.Position ?? 0)} (STALE: names file id {checkpoint.FilterFileId})",
        _ => "INVALID (see error)",
    };

    /// <summary>
    /// Tells the operator about a checkpoint that is not current: a stale one is a warning; an invalid (garbage) one
    /// is an error, exit code 2. Returns the worse of <paramref name="exitCode"/> and the checkpoint's code.
    /// </summary>
    public static int Judge(CheckpointReport? checkpoint, TextWriter error, int exitCode)
    {
        switch (checkpoint?.Status)
        {
            case Stale:
                error.WriteLine($"{CommandTree.ToolName}: warning: {checkpoint.Problem}");
                return exitCode;
            case Invalid:
                error.WriteLine($"{CommandTree.ToolName}: error: {checkpoint.Problem}");
                return ExitCodes.Failure;
            default:
                return exitCode;
        }
    }
}
