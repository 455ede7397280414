namespace EventFilter.Cli.Reports.Client;

/// <summary>`stats`: the daemon's INFO, as sections of fields ("Server": {"redis_version": "7.0.0", ...}).</summary>
internal sealed record StatsReport(string Socket, Dictionary<string, Dictionary<string, string>> Sections) : IClientReport
{
    /// <summary>Parses INFO's text: "# Section" lines, then "field:value" lines.</summary>
    public static StatsReport Parse(string socket, string info)
    {
        var sections = new Dictionary<string, Dictionary<string, string>>(StringComparer.Ordinal);
        Dictionary<string, string>? current = null;
        foreach (string line in info.Split('\n', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.StartsWith('#'))
            {
                sections[line.TrimStart('#', ' ')] = current = new Dictionary<string, string>(StringComparer.Ordinal);
            }
            else if (line.IndexOf(':', StringComparison.Ordinal) is > 0 and int colon)
            {
                current ??= sections[string.Empty] = new Dictionary<string, string>(StringComparer.Ordinal);
                current[line[..colon]] = line[(colon + 1)..];
            }
        }

        return new StatsReport(socket, sections);
    }

    public void WriteText(TextWriter output)
    {
        foreach ((string section, Dictionary<string, string> fields) in Sections)
        {
            output.WriteLine($"# {section}");
            foreach ((string field, string value) in fields)
            {
                output.WriteLine($"{field,-22} {value}");
            }
        }
    }
}
