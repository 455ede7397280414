using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports.Client;

/// <summary>`info`: BF.INFO's fields under their own names.</summary>
/// <param name="Capacity">Items the layers hold before the next one is opened.</param>
/// <param name="SizeBytes">Bytes of the layer files.</param>
/// <param name="Layers">Layer files (RedisBloom's "Number of filters").</param>
/// <param name="Items">Items added, each answered "added" once.</param>
/// <param name="Expansion">How much larger each new layer is; null for a non-scaling filter.</param>
internal sealed record FilterInfoReport(string Socket, string Name, long Capacity, long SizeBytes, long Layers, long Items, long? Expansion) : IClientReport
{
    public void WriteText(TextWriter output)
    {
        output.WriteLine($"filter      {Name}");
        output.WriteLine($"items       {TextFormat.Count(Items)} of capacity {TextFormat.Count(Capacity)}");
        output.WriteLine($"layers      {TextFormat.Count(Layers)}, {TextFormat.Bytes(SizeBytes)}");
        output.WriteLine($"expansion   {(Expansion is { } factor ? $"{factor}x per new layer" : "none (non-scaling)")}");
    }
}
