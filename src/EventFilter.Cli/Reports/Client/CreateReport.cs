using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports.Client;

/// <summary>`create`: the filter now exists with these parameters (BF.RESERVE answered OK).</summary>
/// <param name="Expansion">How much larger each new layer is; null for a non-scaling filter.</param>
internal sealed record CreateReport(string Socket, string Name, long Capacity, double ErrorRate, int? Expansion) : IClientReport
{
    public void WriteText(TextWriter output)
    {
        string scaling = Expansion is { } factor ? $"each new layer {factor}x larger when full" : "non-scaling: adds fail once it is full";
        output.WriteLine($"created filter '{Name}': capacity {TextFormat.Count(Capacity)} at error rate {TextFormat.Percent(ErrorRate)}; {scaling}");
    }
}
