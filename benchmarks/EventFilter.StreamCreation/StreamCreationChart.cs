using System.Globalization;

namespace EventFilter.StreamCreation;

/// <summary>The experiment's chart: rate against streams written, one line per config, dashed lines at each index flush.</summary>
internal static class StreamCreationChart
{
    /// <summary>Writes the chart beside <paramref name="csvPath"/> (same name, .svg) and returns its path.</summary>
    public static string Write(string csvPath, IReadOnlyList<RateRow> rows, HarnessSettings settings)
    {
        string svg = Path.ChangeExtension(csvPath, ".svg");
        long streams = rows.Count > 0 ? rows.Max(r => r.Streams) : settings.Streams;
        long window = rows.Count > 0 ? rows.Min(r => r.Streams) : settings.Window; // the first row ends the first window
        var series = rows.GroupBy(r => r.Config).Select(g => new ChartSeries(
            g.Key,
            CreationConfig.All.FirstOrDefault(c => c.Name == g.Key)?.Colour ?? "#7f7f7f",
            [.. g.OrderBy(r => r.Streams).Select(r => ((double)r.Streams, r.WindowRatePerSecond))]));
        SvgLineChart.Write(
            svg,
            "Appends to new streams per second, by filter configuration",
            string.Create(CultureInfo.InvariantCulture,
                $"{streams:N0} events to {streams:N0} new streams; memtable {settings.MemTableEntries:N0}; {settings.Concurrency} in flight; dashed lines: a memtable filled (index flush)"),
            "streams written",
            $"streams created per second ({AxisTicks.Label(window)}-stream windows)",
            [.. series],
            [.. Enumerable.Range(1, (int)Math.Min(1000, streams / settings.MemTableEntries)).Select(i => (double)i * settings.MemTableEntries)]);
        return svg;
    }
}
