using System.Globalization;
using ScottPlot;

namespace EventFilter.StreamCreation;

/// <summary>
/// The experiment's chart, drawn with ScottPlot: rate against streams written, one line per config, dashed lines at
/// each index flush, written as PNG (for the README and docs) and SVG beside the CSV.
/// </summary>
internal static class StreamCreationChart
{
    private const int Width = 1100, Height = 600;

    /// <summary>Writes the chart beside <paramref name="csvPath"/> (same name, .png and .svg) and returns the PNG's path.</summary>
    public static string Write(string csvPath, IReadOnlyList<RateRow> rows, HarnessSettings settings)
    {
        long streams = rows.Count > 0 ? rows.Max(r => r.Streams) : settings.Streams;
        long window = rows.Count > 0 ? rows.Min(r => r.Streams) : settings.Window; // the first row ends the first window
        var plot = new Plot();
        plot.XLabel("streams written (millions)");
        plot.YLabel("new streams per second (thousands)");

        // Dashed markers first, so the lines draw over them: each is a memtable filling up, i.e. an index flush.
        int flushes = (int)Math.Min(1000, streams / settings.MemTableEntries);
        for (int i = 1; i <= flushes; i++)
        {
            var flush = plot.Add.VerticalLine((double)i * settings.MemTableEntries / 1e6);
            flush.LineColor = Colors.Gray.WithAlpha(0.5);
            flush.LinePattern = LinePattern.Dashed;
            flush.LineWidth = 1;
        }

        foreach (IGrouping<string, RateRow> config in rows.GroupBy(r => r.Config))
        {
            RateRow[] points = [.. config.OrderBy(r => r.Streams)];
            var line = plot.Add.ScatterLine(points.Select(r => r.Streams / 1e6).ToArray(), points.Select(r => r.WindowRatePerSecond / 1e3).ToArray());
            line.LegendText = config.Key;
            line.Color = Color.FromHex(CreationConfig.All.FirstOrDefault(c => c.Name == config.Key)?.Colour ?? "#7f7f7f");
            line.LineWidth = 2;
        }

        plot.Axes.SetLimitsX(0, streams / 1e6);
        plot.Axes.SetLimitsY(0, rows.Count > 0 ? rows.Max(r => r.WindowRatePerSecond) / 1e3 * 1.1 : 1);
        plot.ShowLegend(Edge.Right);
        plot.Legend.FontSize = 13;
        plot.Axes.Bottom.Label.FontSize = 15;
        plot.Axes.Left.Label.FontSize = 15;
        plot.Axes.Title.Label.Text = string.Create(CultureInfo.InvariantCulture,
            $"Appends to new streams per second, by filter configuration\n{AxisTicks.Label(streams)} events to {AxisTicks.Label(streams)} new streams; memtable {AxisTicks.Label(settings.MemTableEntries)}; {settings.Concurrency} in flight; rate per {AxisTicks.Label(window)} streams; dashed: index flushes");
        plot.Axes.Title.Label.FontSize = 16;

        string png = Path.ChangeExtension(csvPath, ".png");
        plot.SavePng(png, Width, Height);
        plot.SaveSvg(Path.ChangeExtension(csvPath, ".svg"), Width, Height);
        return png;
    }
}
