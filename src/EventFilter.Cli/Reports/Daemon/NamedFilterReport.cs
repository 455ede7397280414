using EventFilter.Cli.Output;
using EventFilter.Daemon.Formats;

namespace EventFilter.Cli.Reports.Daemon;

/// <summary>One named filter's directory: its name (from the directory's name), its digest log and its layers.</summary>
/// <param name="Name">The name as text (escaped when it is not printable UTF-8, see KeyText).</param>
/// <param name="Hex">The name's bytes in hex, exact.</param>
/// <param name="Layers">The layers the log's items reach, as the daemon opens them; none when the log is empty or unreadable.</param>
internal sealed record NamedFilterReport(string Name, string Hex, string Directory, DigestLogReport DigestLog, IReadOnlyList<LayerReport> Layers)
{
    public static NamedFilterReport Read(CliConsole console, string directory, byte[] key, double threshold)
    {
        DigestLogReport log = DigestLogReport.Read(directory, out FilterParameters parameters);
        var layers = new List<LayerReport>();
        if (log.Parameters is not null)
        {
            // As NamedFilter.Open: none for an empty log (layer 0's file is made by the first add), else layers until
            // the last one's range reaches the last item. The daemon never grows a chain past MaxLayers, so a log that
            // claims more is damaged; the report stops there.
            while (layers.Count < FilterParameters.MaxLayers && parameters.LayerStart(layers.Count) < log.Items)
            {
                layers.Add(LayerReport.Read(console, directory, layers.Count, parameters, log, threshold));
            }
        }

        return new NamedFilterReport(KeyText.Display(key), Convert.ToHexStringLower(key), directory, log, layers);
    }

    public void WriteText(TextWriter output)
    {
        output.WriteLine($"{Name}  ({System.IO.Path.GetFileName(Directory)})");
        if (DigestLog.Parameters is { } parameters)
        {
            output.WriteLine($"  parameters     {parameters.Describe()}");
        }

        output.WriteLine($"  digest log     {DigestLog.Describe()}");
        foreach (LayerReport layer in Layers)
        {
            layer.WriteText(output);
        }
    }
}
