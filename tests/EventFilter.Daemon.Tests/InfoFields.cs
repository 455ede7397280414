namespace EventFilter.Daemon.Tests;

/// <summary>
/// INFO parsed by the rules Prometheus's redis_exporter applies: lines split on CRLF, "# Name" starts a section, other
/// non-empty lines are "field:value" split at the first colon. Throws on anything else, as a line the exporter would
/// drop means a field a dashboard would miss.
/// </summary>
public static class InfoFields
{
    public static Dictionary<string, Dictionary<string, string>> Parse(string info)
    {
        Assert.DoesNotContain("\n", info.Replace("\r\n", "", StringComparison.Ordinal), StringComparison.Ordinal);
        var sections = new Dictionary<string, Dictionary<string, string>>(StringComparer.OrdinalIgnoreCase);
        Dictionary<string, string>? current = null;
        foreach (string line in info.Split("\r\n"))
        {
            if (line.Length == 0)
            {
                continue;
            }

            if (line.StartsWith("# ", StringComparison.Ordinal))
            {
                sections.Add(line[2..], current = new Dictionary<string, string>(StringComparer.Ordinal));
                continue;
            }

            int colon = line.IndexOf(':', StringComparison.Ordinal);
            Assert.True(colon > 0, $"not a field: '{line}'");
            Assert.NotNull(current);
            current.Add(line[..colon], line[(colon + 1)..]);
        }

        return sections;
    }
}
