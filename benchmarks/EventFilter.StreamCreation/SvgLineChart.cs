using System.Globalization;
using System.Security;
using System.Text;

namespace EventFilter.StreamCreation;

/// <summary>One line of a chart: its legend name, colour, and (x, y) points in x order.</summary>
internal sealed record ChartSeries(string Name, string Colour, IReadOnlyList<(double X, double Y)> Points);

/// <summary>
/// A plain SVG line chart (no charting package is on this project's registry): both axes from zero, round ticks,
/// grid lines, dashed markers at given x values (the index flushes), axis labels, a title with a subtitle line, and a
/// legend on the right.
/// </summary>
internal static class SvgLineChart
{
    private const double Width = 960, Height = 540, Left = 80, Right = 170, Top = 70, Bottom = 60;
    private const double PlotWidth = Width - Left - Right, PlotHeight = Height - Top - Bottom;

    public static void Write(string path, string title, string subtitle, string xLabel, string yLabel, IReadOnlyList<ChartSeries> series, IReadOnlyList<double> markers)
    {
        IReadOnlyList<double> xTicks = AxisTicks.For(series.SelectMany(s => s.Points).Select(p => p.X).DefaultIfEmpty(1).Max());
        IReadOnlyList<double> yTicks = AxisTicks.For(series.SelectMany(s => s.Points).Select(p => p.Y).DefaultIfEmpty(1).Max());
        double xMax = xTicks[^1], yMax = yTicks[^1];
        double X(double x) => Left + (x / xMax * PlotWidth);
        double Y(double y) => Top + PlotHeight - (y / yMax * PlotHeight);

        var svg = new StringBuilder();
        Line(svg, $"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{Width}\" height=\"{Height}\" viewBox=\"0 0 {Width} {Height}\" font-family=\"sans-serif\" font-size=\"12\">");
        Line(svg, $"<rect width=\"{Width}\" height=\"{Height}\" fill=\"white\"/>");
        Line(svg, $"<text x=\"{Left}\" y=\"28\" font-size=\"17\" font-weight=\"bold\">{Escape(title)}</text>");
        Line(svg, $"<text x=\"{Left}\" y=\"48\" fill=\"#555\">{Escape(subtitle)}</text>");
        foreach (double x in xTicks)
        {
            Line(svg, $"<line x1=\"{X(x):F1}\" y1=\"{Top}\" x2=\"{X(x):F1}\" y2=\"{Top + PlotHeight}\" stroke=\"#e5e5e5\"/>");
            Line(svg, $"<text x=\"{X(x):F1}\" y=\"{Top + PlotHeight + 18}\" text-anchor=\"middle\">{AxisTicks.Label(x)}</text>");
        }

        foreach (double y in yTicks)
        {
            Line(svg, $"<line x1=\"{Left}\" y1=\"{Y(y):F1}\" x2=\"{Left + PlotWidth}\" y2=\"{Y(y):F1}\" stroke=\"#e5e5e5\"/>");
            Line(svg, $"<text x=\"{Left - 8}\" y=\"{Y(y) + 4:F1}\" text-anchor=\"end\">{AxisTicks.Label(y)}</text>");
        }

        foreach (double x in markers.Where(m => m > 0 && m <= xMax))
        {
            Line(svg, $"<line x1=\"{X(x):F1}\" y1=\"{Top}\" x2=\"{X(x):F1}\" y2=\"{Top + PlotHeight}\" stroke=\"#999\" stroke-dasharray=\"3 4\"/>");
        }

        Line(svg, $"<rect x=\"{Left}\" y=\"{Top}\" width=\"{PlotWidth}\" height=\"{PlotHeight}\" fill=\"none\" stroke=\"#333\"/>");
        Line(svg, $"<text x=\"{Left + (PlotWidth / 2)}\" y=\"{Height - 15}\" text-anchor=\"middle\">{Escape(xLabel)}</text>");
        Line(svg, $"<text transform=\"translate(22 {Top + (PlotHeight / 2)}) rotate(-90)\" text-anchor=\"middle\">{Escape(yLabel)}</text>");

        for (int i = 0; i < series.Count; i++)
        {
            ChartSeries s = series[i];
            string points = string.Join(' ', s.Points.Select(p => string.Create(CultureInfo.InvariantCulture, $"{X(p.X):F1},{Y(p.Y):F1}")));
            Line(svg, $"<polyline fill=\"none\" stroke=\"{s.Colour}\" stroke-width=\"1.8\" points=\"{points}\"/>");
            double legendY = Top + 12 + (i * 22);
            Line(svg, $"<line x1=\"{Left + PlotWidth + 15}\" y1=\"{legendY}\" x2=\"{Left + PlotWidth + 40}\" y2=\"{legendY}\" stroke=\"{s.Colour}\" stroke-width=\"3\"/>");
            Line(svg, $"<text x=\"{Left + PlotWidth + 46}\" y=\"{legendY + 4}\">{Escape(s.Name)}</text>");
        }

        Line(svg, $"</svg>");
        File.WriteAllText(path, svg.ToString());
    }

    private static void Line(StringBuilder svg, FormattableString text) =>
        svg.Append(text.ToString(CultureInfo.InvariantCulture)).Append('\n');

    private static string Escape(string text) => SecurityElement.Escape(text);
}
