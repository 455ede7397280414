namespace EventFilter.Cli.Reports.Client;

/// <summary>`drop`: the filter and its files are gone (a missing one is a refusal, exit 4, not a report).</summary>
internal sealed record DropReport(string Socket, string Name, bool Dropped) : IClientReport
{
    public void WriteText(TextWriter output) => output.WriteLine($"dropped filter '{Name}' and its files");
}
