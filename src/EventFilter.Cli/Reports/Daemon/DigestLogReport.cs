using EventFilter.Cli.Output;
using EventFilter.Daemon.Formats;

namespace EventFilter.Cli.Reports.Daemon;

/// <summary>
/// A filter's digest log, read with a plain read that shares the file with a running daemon: its parameters, how
/// many whole items it holds, and any torn tail (an append cut short by a crash: never acknowledged, dropped at the
/// next start). See docs/daemon.md, "Files", and docs/daemon-design.md, "Durability".
/// </summary>
/// <param name="Status"><see cref="Valid"/>, <see cref="TornTail"/>, <see cref="Invalid"/> or <see cref="Unwritten"/>.</param>
/// <param name="Bytes">The file's length.</param>
/// <param name="Items">Whole 8-byte records after the header.</param>
/// <param name="TornBytes">Bytes after the last whole record.</param>
/// <param name="EndPosition">The position after the last whole record: where every layer's catch-up ends.</param>
/// <param name="Parameters">The BF.RESERVE parameters in the header; null when it is unreadable.</param>
internal sealed record DigestLogReport(string Path, string Status, long Bytes, long Items, long TornBytes, long EndPosition, ParametersReport? Parameters, string? Problem)
{
    public const string Valid = "valid";
    public const string TornTail = "torn-tail";
    public const string Invalid = "invalid";

    /// <summary>Missing, shorter than a header, or a header of zeros: a create that never reached the disk, which the daemon drops at start.</summary>
    public const string Unwritten = "unwritten";

    public static DigestLogReport Read(string filterDirectory, out FilterParameters parameters)
    {
        parameters = default;
        string path = System.IO.Path.Combine(filterDirectory, DataLayout.DigestLogFile);
        const string Dropped = "a create that never reached the disk (power loss within a sync interval of it): eventfilterd drops this filter at its next start";
        if (!File.Exists(path))
        {
            return new DigestLogReport(path, Unwritten, 0, 0, 0, 0, null, $"there is no '{DataLayout.DigestLogFile}', {Dropped}");
        }

        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0);
        long length = stream.Length;
        byte[] header = new byte[DigestLogFormat.HeaderLength];
        int read = stream.ReadAtLeast(header, header.Length, throwOnEndOfStream: false);
        if (DigestLogFormat.IsUnwritten(header.AsSpan(0, read)))
        {
            return new DigestLogReport(path, Unwritten, length, 0, 0, 0, null, $"the header of '{path}' is short or all zeros, {Dropped}");
        }

        if (!DigestLogFormat.TryReadHeader(header, out parameters))
        {
            return new DigestLogReport(path, Invalid, length, 0, 0, 0, null, $"the header of '{path}' is missing, of another version or fails its checksum: eventfilterd will not start until it is restored or this filter's directory is removed");
        }

        long items = DigestLogFormat.RecordsIn(length);
        long end = DigestLogFormat.PositionOf(items);
        long torn = length - end;
        return torn == 0
            ? new DigestLogReport(path, Valid, length, items, 0, end, ParametersReport.From(parameters), null)
            : new DigestLogReport(path, TornTail, length, items, torn, end, ParametersReport.From(parameters), $"a torn tail of {torn} bytes (an append cut short by a crash, never acknowledged): dropped at the next start");
    }

    /// <summary>The text line for it.</summary>
    public string Describe() => Status switch
    {
        Valid => $"{TextFormat.Count(Items)} items, {TextFormat.Bytes(Bytes)}",
        TornTail => $"{TextFormat.Count(Items)} items, {TextFormat.Bytes(Bytes)}; {Problem}",
        _ => $"{Status.ToUpperInvariant()}: {Problem}",
    };
}

/// <summary>What BF.RESERVE fixed for the filter: the first layer's capacity and error rate, and how it scales.</summary>
/// <param name="Expansion">How much larger each new layer is; null for a non-scaling filter.</param>
internal sealed record ParametersReport(long Capacity, double ErrorRate, int? Expansion)
{
    public static ParametersReport From(FilterParameters parameters) =>
        new(parameters.Capacity, parameters.ErrorRate, parameters.NonScaling ? null : parameters.Expansion);

    public string Describe() =>
        $"capacity {TextFormat.Count(Capacity)} at error rate {TextFormat.Percent(ErrorRate)}; {(Expansion is { } factor ? $"each new layer {factor}x larger" : "non-scaling")}";
}
