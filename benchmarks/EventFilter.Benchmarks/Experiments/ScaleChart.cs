using System.Globalization;
using System.Text.Json.Nodes;
using ScottPlot;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>scale --plot FILE.json</c>: the chart of a <c>scale</c> run (FILE.png and FILE.svg beside it, drawn with ScottPlot
/// as the stream-creation chart is) and its phase table in Markdown. Cost per name against size, each as a multiple
/// of the same run's pointer chase at that size (so the chase is the line at 1): each size's best round of the
/// catch-up paths (on every core and, from a run with --pinned, on one CPU; with the default options dashed beside
/// the same catch-up without intermediate checkpoints), and its phases.
/// </summary>
internal static class ScaleChart
{
    private const int Width = 1100, Height = 600;

    public static int Write(string jsonPath)
    {
        JsonObject run = JsonNode.Parse(File.ReadAllText(jsonPath))!.AsObject();
        JsonObject[] phases = [.. run["phases"]!.AsArray().Select(p => p!.AsObject()).OrderBy(p => Long(p, "size_mib"))];
        JsonObject[] rows = [.. run["rows"]!.AsArray().Select(r => r!.AsObject())];
        int cores = (int)Long(run, "cores");
        double[] x = [.. Enumerable.Range(0, phases.Length).Select(i => (double)i)];

        var plot = new Plot();
        double top = 1;
        void Ratio(Func<JsonObject, double> ratio, string label, string colour, bool dashed = false) =>
            top = Math.Max(top, Series(plot, x, phases.Select(ratio), label, colour, dashed));
        void Line(Func<JsonObject, double> ns, string label, string colour) => Ratio(p => ns(p) / Double(p, "chase_ns"), label, colour);
        Ratio(p => 1, "pointer chase (same run) = 1", "#7f7f7f", dashed: true);
        foreach ((string path, bool pinned, string label, string colour, bool dashed) in new[]
        {
            ("region, 1 thread", false, "region, 1 thread", "#1f77b4", false),
            ($"region, {cores} threads", false, $"region, {cores} threads, no intermediate checkpoints", "#17becf", false),
            ($"default options, {cores} threads", false, $"default options, {cores} CPUs", "#17becf", true),
            ("region, 1 thread", true, "1 CPU (taskset -c 0), no intermediate checkpoints", "#bcbd22", false),
            ("default options, 1 thread", true, "default options, 1 CPU (taskset -c 0)", "#bcbd22", true),
        })
        {
            // Each catch-up round has its own chase: its best ratio. A run without --pinned has no pinned rows: no line.
            if (rows.Any(r => r["path"]!.GetValue<string>() == path && Pinned(r) == pinned))
            {
                Ratio(p => BestRound(rows, Long(p, "size_mib"), path, pinned), $"catch-up, {label} (best round)", colour, dashed);
            }
        }

        Line(p => Double(p, "lookup_hit_1t_ns"), "lookup hit, 1 thread", "#d62728");
        Line(p => Double(p, "lookup_miss_1t_ns"), "lookup miss, 1 thread", "#ff9896");
        Line(p => Double(p["resize"]!.AsObject(), "ns_per_name"), "online resize to 2x (lookups running)", "#2ca02c");
        Line(p => Double(p, "reopen_to_ready_s") * 1e9 / Long(p, "names"), "reopen to ready (verify)", "#9467bd");
        Line(p => Double(p, "final_checkpoint_s") * 1e9 / Long(p, "names"), "final checkpoint", "#8c564b");

        plot.Axes.Bottom.SetTicks(x, [.. phases.Select(p => $"{Size(Long(p, "size_mib"))}\n{Long(p, "names") / 1e6:0.#}M names")]);
        plot.Axes.SetLimitsX(-0.3, phases.Length - 0.7);
        plot.Axes.SetLimitsY(0, top * 1.1);
        plot.XLabel("filter size");
        plot.YLabel("per name (lookup), over the same run's chase");
        plot.ShowLegend(Edge.Right);
        plot.Legend.FontSize = 13;
        plot.Axes.Title.Label.Text = $"scale: cost per name against size\n{run["machine"]}\nload average {run["load_average"]}"; // a line each: one line overran the plot's width
        plot.Axes.Title.Label.FontSize = 16;
        plot.SavePng(Path.ChangeExtension(jsonPath, ".png"), Width, Height);
        plot.SaveSvg(Path.ChangeExtension(jsonPath, ".svg"), Width, Height);

        PrintTable(phases, cores);
        return 0;
    }

    private static void PrintTable(JsonObject[] phases, int cores)
    {
        static string X(double ns, double chase) => string.Create(CultureInfo.InvariantCulture, $"{ns:F1} = {ns / chase:F3}");
        MarkdownTable.Print(["phase", .. phases.Select(p => $"{Size(Long(p, "size_mib"))}, {Long(p, "names") / 1e6:0.#}M names")], new List<IReadOnlyList<string>>
        {
            Row("pointer chase, ns", phases, p => $"{Double(p, "chase_ns"):F1}"),
            Row("catch-up, ns/name = x chase", phases, p => X(Double(p, "catch_up_ns_per_name"), Double(p, "chase_ns"))),
            Row("final checkpoint, s", phases, p => $"{Double(p, "final_checkpoint_s"):F2}"),
            Row("lookup hit, 1 thread, ns = x chase", phases, p => X(Double(p, "lookup_hit_1t_ns"), Double(p, "chase_ns"))),
            Row("lookup miss, 1 thread, ns = x chase", phases, p => X(Double(p, "lookup_miss_1t_ns"), Double(p, "chase_ns"))),
            Row($"lookup hit, {cores} threads, ns per lookup per thread", phases, p => $"{Double(p, $"lookup_hit_{cores}t_ns"):F1}"),
            Row($"lookup miss, {cores} threads, ns per lookup per thread", phases, p => $"{Double(p, $"lookup_miss_{cores}t_ns"):F1}"),
            Row("reopen to ready, s", phases, p => $"{Double(p, "reopen_to_ready_s"):F3}"),
            Row("verify in page cache, 1 thread, GB/s (before; read alone)", phases, p => Rates(p, "", 1)),
            Row($"verify in page cache, {cores} threads, GB/s (before; read alone)", phases, p => Rates(p, "", cores)),
            Row($"verify cold, {cores} threads, GB/s (before; without MADV_SEQUENTIAL; dd)", phases, p => Cold(p, cores)),
            Row("online resize to 2x, s (ns/name)", phases, p => $"{Double(p["resize"]!.AsObject(), "seconds"):F1} ({Double(p["resize"]!.AsObject(), "ns_per_name"):F1})"),
            Row("lookups during the resize; false negatives", phases, p => $"{Long(p["resize"]!.AsObject(), "lookups_during") / 1e6:F1}M; {Long(p["resize"]!.AsObject(), "false_negatives_during") + Long(p["resize"]!.AsObject(), "false_negatives_after")}"),
            Row("load average after", phases, p => $"{p["load_average"]}"),
        });
    }

    private static string Rates(JsonObject p, string prefix, int threads)
    {
        JsonObject v = p["verify"]!.AsObject();
        return string.Create(CultureInfo.InvariantCulture, $"{Double(v, $"{prefix}scan_{threads}t_gbs"):F2} ({Double(v, $"scan_before_{threads}t_gbs"):F2}; {Double(v, $"read_alone_{threads}t_gbs"):F2})");
    }

    private static string Cold(JsonObject p, int threads)
    {
        JsonObject v = p["verify"]!.AsObject();
        return v["caches_dropped"]!.GetValue<bool>()
            ? string.Create(CultureInfo.InvariantCulture, $"{Double(v, $"cold_scan_{threads}t_gbs"):F2} ({Double(v, $"cold_scan_before_{threads}t_gbs"):F2}; {(v[$"cold_scan_not_sequential_{threads}t_gbs"] is null ? "-" : $"{Double(v, $"cold_scan_not_sequential_{threads}t_gbs"):F2}")}; {Double(v, "cold_dd_gbs"):F2})")
            : "page cache not dropped (not root)";
    }

    private static IReadOnlyList<string> Row(string name, JsonObject[] phases, Func<JsonObject, string> cell) => [name, .. phases.Select(cell)];

    private static double BestRound(JsonObject[] rows, long sizeMib, string path, bool pinned) =>
        rows.Where(r => Long(r, "size_mib") == sizeMib && r["path"]!.GetValue<string>() == path && Pinned(r) == pinned).Select(r => Double(r, "x_chase")).DefaultIfEmpty(double.NaN).Min();

    private static bool Pinned(JsonObject row) => row["pinned"]?.GetValue<bool>() == true;

    /// <summary>Adds a line; returns its highest point.</summary>
    private static double Series(Plot plot, double[] x, IEnumerable<double> y, string label, string colour, bool dashed)
    {
        double[] points = y.ToArray();
        var line = plot.Add.ScatterLine(x, points);
        line.LegendText = label;
        line.Color = Color.FromHex(colour);
        line.LineWidth = 2;
        line.MarkerSize = 7;
        line.LinePattern = dashed ? LinePattern.Dashed : LinePattern.Solid;
        return points.Where(double.IsFinite).DefaultIfEmpty(0).Max();
    }

    private static string Size(long mib) => mib >= 1024 ? $"{mib / 1024} GiB" : $"{mib} MiB";

    private static double Double(JsonObject node, string name) => node[name]!.GetValue<double>();

    private static long Long(JsonObject node, string name) => node[name]!.GetValue<long>();
}
