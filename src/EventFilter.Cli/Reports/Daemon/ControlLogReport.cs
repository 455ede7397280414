using EventFilter.Cli.Output;
using EventFilter.Daemon.Filters;

namespace EventFilter.Cli.Reports.Daemon;

/// <summary>
/// The data directory's control log: the creates and drops since the daemon's last sync tick, which its next tick or
/// start applies to filters/ (a crash leaves them there). Read with a plain read shared with a running daemon. See
/// docs/daemon.md, "Durability".
/// </summary>
/// <param name="Status"><see cref="Empty"/>, <see cref="Pending"/> or <see cref="Invalid"/>.</param>
/// <param name="Records">Readable records, up to the first torn one or one left from before the last reset.</param>
/// <param name="Changes">What each name's last record says: "create NAME (parameters)" or "drop NAME", as the next start applies it.</param>
internal sealed record ControlLogReport(string Path, string Status, long Bytes, int Records, IReadOnlyList<string> Changes, string? Problem)
{
    public const string Empty = "empty";
    public const string Pending = "pending";
    public const string Invalid = "invalid";

    public static ControlLogReport Read(string dataDirectory)
    {
        string path = System.IO.Path.Combine(dataDirectory, DataLayout.ControlLogFile);
        if (!File.Exists(path))
        {
            return new ControlLogReport(path, Empty, 0, 0, [], null);
        }

        byte[] bytes;
        using (var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0))
        {
            bytes = new byte[stream.Length];
            bytes = bytes[..stream.ReadAtLeast(bytes, bytes.Length, throwOnEndOfStream: false)];
        }

        if (ControlLogFormat.IsUnwritten(bytes))
        {
            return new ControlLogReport(path, Empty, bytes.Length, 0, [], null);
        }

        if (!ControlLogFormat.TryReadHeader(bytes, out uint epoch))
        {
            return new ControlLogReport(path, Invalid, bytes.Length, 0, [], $"the header of '{path}' is of another format or fails its checksum: eventfilterd will not start until it is restored or removed (removing it loses the creates and drops of the last sync interval)");
        }

        var last = new Dictionary<string, ControlRecord>(StringComparer.Ordinal);
        int records = 0;
        for (int position = ControlLogFormat.HeaderLength;
             ControlLogFormat.TryReadRecord(bytes.AsSpan(position), epoch, out ControlRecord record, out int length);
             position += length)
        {
            last[record.Name] = record;
            records++;
        }

        List<string> changes = [.. last.Values.Select(Describe).Order(StringComparer.Ordinal)];
        return new ControlLogReport(path, records == 0 ? Empty : Pending, bytes.Length, records, changes, null);
    }

    public void WriteText(TextWriter output)
    {
        if (Status == Invalid)
        {
            output.WriteLine($"control log      INVALID: {Problem}");
            return;
        }

        output.WriteLine($"control log      {(Records == 0 ? "no creates or drops pending" : $"{TextFormat.Count(Records)} records, applied to filters/ at the next tick or start:")}");
        foreach (string change in Changes)
        {
            output.WriteLine($"                 {change}");
        }
    }

    private static string Describe(ControlRecord record)
    {
        string name = KeyNames.TryParse(record.Name, out byte[] key) ? KeyText.Display(key) : record.Name;
        return record.Action == ControlAction.Create
            ? $"create {name} ({ParametersReport.From(record.Parameters).Describe()})"
            : $"drop {name}";
    }
}
