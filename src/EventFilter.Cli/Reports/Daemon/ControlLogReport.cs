using EventFilter.Cli.Output;
using EventFilter.Daemon.Formats;

namespace EventFilter.Cli.Reports.Daemon;

/// <summary>
/// The data directory's control log: the creates and drops the daemon recorded since its last sync tick, and the
/// creates of filters that have no files yet (carried from tick to tick), in its two files, the older epoch first. A
/// start applies them to filters/. Read with plain reads shared with a running daemon. See docs/daemon-design.md, "Durability".
/// </summary>
/// <param name="Status"><see cref="Empty"/>, <see cref="Pending"/> or <see cref="Invalid"/>.</param>
/// <param name="Records">Readable records in both files, each file up to its first torn record or one left from before its last reset.</param>
/// <param name="Changes">What each name's last record says: "create NAME (parameters)" or "drop NAME", as the next start applies it.</param>
internal sealed record ControlLogReport(string Status, int Records, IReadOnlyList<string> Changes, string? Problem)
{
    public const string Empty = "empty";
    public const string Pending = "pending";
    public const string Invalid = "invalid";

    public static ControlLogReport Read(string dataDirectory)
    {
        var files = new List<(uint Epoch, List<ControlRecord> Records)>();
        foreach (string name in DataLayout.ControlLogFiles)
        {
            string path = System.IO.Path.Combine(dataDirectory, name);
            if (!TryRead(path, out uint epoch, out List<ControlRecord> records))
            {
                return new ControlLogReport(Invalid, 0, [], $"the header of '{path}' is of another format or fails its checksum: eventfilterd will not start until it is restored or removed (removing it loses the creates and drops it holds)");
            }

            files.Add((epoch, records));
        }

        // Per name, its last create or drop and the items recorded since (as the daemon's replay reads them).
        var last = new Dictionary<string, (ControlRecord Record, int Items)>(StringComparer.Ordinal);
        int count = 0;
        foreach ((_, List<ControlRecord> records) in files.OrderBy(file => file.Epoch))
        {
            foreach (ControlRecord record in records)
            {
                count++;
                if (record.Action != ControlAction.Items)
                {
                    bool carried = record.Action == ControlAction.Create && last.TryGetValue(record.Name, out var before) && before.Record.Action == ControlAction.Create;
                    last[record.Name] = (record, carried ? last[record.Name].Items : 0);
                }
                else if (last.TryGetValue(record.Name, out var create) && create.Record.Action == ControlAction.Create)
                {
                    last[record.Name] = (create.Record, create.Items + record.Digests!.Length);
                }
            }
        }

        List<string> changes = [.. last.Values.Select(entry => Describe(entry.Record, entry.Items)).Order(StringComparer.Ordinal)];
        return new ControlLogReport(count == 0 ? Empty : Pending, count, changes, null);
    }

    public void WriteText(TextWriter output)
    {
        if (Status == Invalid)
        {
            output.WriteLine($"control log      INVALID: {Problem}");
            return;
        }

        output.WriteLine($"control log      {(Records == 0 ? "no creates or drops pending" : $"{TextFormat.Count(Records)} records, applied to filters/ at the next start:")}");
        foreach (string change in Changes)
        {
            output.WriteLine($"                 {change}");
        }
    }

    /// <summary>One file's records; false when its header has non-zero bytes and fails its checksum. Missing or unwritten: none.</summary>
    private static bool TryRead(string path, out uint epoch, out List<ControlRecord> records)
    {
        epoch = 0;
        records = [];
        if (!File.Exists(path))
        {
            return true;
        }

        byte[] bytes;
        using (var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0))
        {
            bytes = new byte[stream.Length];
            bytes = bytes[..stream.ReadAtLeast(bytes, bytes.Length, throwOnEndOfStream: false)];
        }

        return ControlLogFormat.TryReadFile(bytes, out epoch, out _, records);
    }

    private static string Describe(ControlRecord record, int items)
    {
        string name = KeyNames.TryParse(record.Name, out byte[] key) ? KeyText.Display(key) : record.Name;
        return record.Action == ControlAction.Create
            ? $"create {name} ({ParametersReport.From(record.Parameters).Describe()}){(items > 0 ? $", {TextFormat.Count(items)} items" : "")}"
            : $"drop {name}";
    }
}
