using System.Text.RegularExpressions;

namespace EventFilter.Hosting.Tests.Monitoring;

/// <summary>One instrument of a table in docs/telemetry.md: its name, kind, unit, and the tag names and values its row names.</summary>
/// <remarks><paramref name="Tags"/> maps each tag to the values its row lists after "= "; none listed is open-ended (<c>error.type</c>).</remarks>
internal sealed record DocumentedInstrument(string Name, string Kind, string Unit, IReadOnlyDictionary<string, string[]> Tags)
{
    /// <summary>
    /// The series the OpenTelemetry Prometheus exporter (1.20.1-beta.1, Directory.Packages.props) writes for it: dots
    /// to underscores; the unit <c>s</c> adds <c>_seconds</c> and <c>By</c> <c>_bytes</c> unless the name ends so
    /// already; <c>1</c> and <c>{...}</c> add nothing; counters end in <c>_total</c>, histograms write
    /// <c>_bucket</c>, <c>_sum</c> and <c>_count</c>. Checked against the sample server's /metrics (docs/telemetry.md,
    /// "Scrape endpoint"). A unit not listed here fails: its suffix must be looked up first.
    /// </summary>
    public IEnumerable<string> PrometheusNames()
    {
        string name = Name.Replace('.', '_');
        string suffix = Unit switch
        {
            "s" => "_seconds",
            "By" => "_bytes",
            "1" => "",
            _ when Unit.StartsWith('{') && Unit.EndsWith('}') => "",
            _ => throw new InvalidOperationException($"{Name}: no Prometheus suffix is known for the unit '{Unit}'"),
        };
        name = name.EndsWith(suffix, StringComparison.Ordinal) ? name : name + suffix;
        return Kind switch
        {
            "Counter" or "ObservableCounter" => [name + "_total"],
            "Histogram" => [name + "_bucket", name + "_sum", name + "_count"],
            "ObservableGauge" or "Gauge" => [name],
            _ => throw new InvalidOperationException($"{Name}: no Prometheus type is known for the kind '{Kind}'"),
        };
    }

    /// <summary>Its tags as Prometheus labels (dots to underscores), and <c>le</c> on a histogram.</summary>
    public IEnumerable<string> Labels() => Tags.Keys.Select(tag => tag.Replace('.', '_')).Concat(Kind == "Histogram" ? ["le"] : []);

    /// <summary>The values documented for the label <paramref name="label"/>; empty when open-ended or not a tag.</summary>
    public string[] Values(string label) => Tags.FirstOrDefault(tag => tag.Key.Replace('.', '_') == label).Value ?? [];
}

/// <summary>The instrument tables of docs/telemetry.md: each table whose header starts "| instrument | kind | unit |".</summary>
internal static partial class DocumentedMetrics
{
    public static IReadOnlyList<DocumentedInstrument> Read(string markdown)
    {
        var instruments = new List<DocumentedInstrument>();
        string[] lines = markdown.ReplaceLineEndings("\n").Split('\n');
        for (int i = 0; i < lines.Length; i++)
        {
            string[] header = Cells(lines[i]);
            if (header is not ["instrument", "kind", "unit", ..])
            {
                continue;
            }

            int tags = Array.IndexOf(header, "tags");
            for (i += 2; i < lines.Length && lines[i].StartsWith('|'); i++)
            {
                string[] row = Cells(lines[i]);
                string tagCell = tags >= 0 ? row[tags] : "";
                instruments.Add(new DocumentedInstrument(
                    row[0].Trim('`'),
                    row[1],
                    row[2].Trim('`'),
                    Tag().Matches(tagCell).ToDictionary(m => m.Groups["tag"].Value, m => m.Groups["value"].Captures.Select(c => c.Value).ToArray(), StringComparer.Ordinal)));
            }
        }

        return instruments;
    }

    private static string[] Cells(string line) =>
        line.StartsWith('|') ? [.. line.Trim().Trim('|').Split('|').Select(cell => cell.Trim())] : [];

    // "`eventfilter.answer` = `definitely-not`, `maybe`, `not-ready`": the tag, then the values listed right after "= ".
    [GeneratedRegex(@"`(?<tag>[a-z_.]+)` =(?: `(?<value>[^`]+)`,?)*")]
    private static partial Regex Tag();
}
