using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports.Client;

/// <summary>`backup`: the filter's dump is in the file, whole (BF.SCANDUMP to its end).</summary>
/// <param name="Items">The items the dump holds: every one the filter had acknowledged when it began.</param>
/// <param name="Chunks">BF.SCANDUMP's chunks, the header chunk included.</param>
/// <param name="Bytes">The file's length.</param>
internal sealed record BackupReport(string Socket, string Name, string File, long Items, int Chunks, long Bytes) : IClientReport
{
    public void WriteText(TextWriter output) =>
        output.WriteLine($"backed up filter '{Name}': {TextFormat.Count(Items)} items in {TextFormat.Count(Chunks)} chunks, {TextFormat.Bytes(Bytes)} to {File}");
}

/// <summary>`restore`: the filter exists under the name, durable, with every item of the backup (the last BF.LOADCHUNK answered OK).</summary>
/// <param name="Items">The items the filter was restored with.</param>
/// <param name="Chunks">The chunks loaded, the header chunk included.</param>
internal sealed record RestoreReport(string Socket, string Name, string File, long Items, int Chunks) : IClientReport
{
    public void WriteText(TextWriter output) =>
        output.WriteLine($"restored filter '{Name}': {TextFormat.Count(Items)} items in {TextFormat.Count(Chunks)} chunks from {File}");
}
