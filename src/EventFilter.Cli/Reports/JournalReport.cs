using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports;

/// <summary>
/// The journal beside a filter: changes flushed but not yet folded into the file (docs/design.md, "Changed-line
/// journal"). Reading tools replay it in memory, so their counts include it; only `repair` (or the server's open)
/// folds it into the file.
/// </summary>
/// <param name="Status"><see cref="None"/>, <see cref="Pending"/> or <see cref="Damaged"/>.</param>
/// <param name="Files">Journal generations.</param>
/// <param name="LineRecords">Changed-line records replayed.</param>
/// <param name="Commits">Flushes they came from.</param>
/// <param name="Bytes">Bytes of journal read.</param>
/// <param name="Position">The last checkpoint position committed in it; null when none was.</param>
/// <param name="Damage">Where and why replay stopped early; null when it read to the end.</param>
internal sealed record JournalReport(string Status, int Files, long LineRecords, long Commits, long Bytes, long? Position, string? Damage)
{
    public const string None = "none";
    public const string Pending = "pending";
    public const string Damaged = "damaged";

    public static JournalReport From(JournalSummary journal) => new(
        journal.Damage is not null ? Damaged : journal.Files == 0 ? None : Pending,
        journal.Files,
        journal.LineRecords,
        journal.Commits,
        journal.Bytes,
        journal.Position,
        journal.Damage);

    /// <summary>The text line for it, as a reading tool finds it.</summary>
    public string Describe() => Status switch
    {
        None => "none (everything flushed is in the file)",
        Pending => $"{Contents()} (pending: folded on the next open or repair)",
        _ => $"DAMAGED: {Damage}; {Contents()} before it",
    };

    /// <summary>
    /// The text line for what `repair` did with it. A repair folds any journal of this file, damaged or not, before it
    /// returns (FilterFile.Verify with repair), so nothing is left for the next open.
    /// </summary>
    public string DescribeFolded() => Status switch
    {
        None => "none to fold",
        Pending => $"folded into the file and removed: {Contents()}",
        _ => $"folded into the file up to its damage and removed: {Contents()} before a damaged record ({Damage}); the server catches up the rest from its log",
    };

    /// <summary>A damaged journal: safe (nothing after the damage is used; the server catches up from the log) but worth a repair.</summary>
    public int Judge(TextWriter error, int exitCode)
    {
        if (Status != Damaged)
        {
            return exitCode;
        }

        error.WriteLine($"{CommandTree.ToolName}: warning: {Damage}. Nothing after it is used; 'repair' folds what is intact, and the server catches up the rest from its log.");
        return Math.Max(exitCode, ExitCodes.Corrupted);
    }

    private string Contents() =>
        $"{TextFormat.Count(Files)} file(s), {TextFormat.Count(LineRecords)} line records from {TextFormat.Count(Commits)} flushes, {TextFormat.Bytes(Bytes)}, last position {(Position is { } p ? TextFormat.Count(p) : "none")}";
}
