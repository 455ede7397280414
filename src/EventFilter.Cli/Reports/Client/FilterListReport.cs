namespace EventFilter.Cli.Reports.Client;

/// <summary>`list`: the names matching the pattern, sorted.</summary>
internal sealed record FilterListReport(string Socket, string Pattern, int Count, IReadOnlyList<FilterName> Filters) : IClientReport
{
    public void WriteText(TextWriter output)
    {
        foreach (FilterName filter in Filters)
        {
            output.WriteLine(filter.Name);
        }
    }
}

/// <summary>A filter's name as text (escaped when it is not printable UTF-8, see KeyText) and its exact bytes in hex.</summary>
internal sealed record FilterName(string Name, string Hex);
