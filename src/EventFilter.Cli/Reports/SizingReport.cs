using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports;

/// <summary>
/// What `sizing` computed: either the size a target rate needs (<see cref="TargetFalsePositiveRate"/> set) or the
/// rate a size gives (<see cref="SizeBytes"/> set), by the classic formula and by our blocked model.
/// </summary>
internal sealed record SizingReport(long Streams, double? TargetFalsePositiveRate, long? SizeBytes, SizingEstimate Classic, SizingEstimate Blocked)
{
    public void WriteText(TextWriter output)
    {
        output.WriteLine($"streams          {TextFormat.Count(Streams)}");
        output.WriteLine(TargetFalsePositiveRate is { } target
            ? $"target rate      {TextFormat.Percent(target)}"
            : $"size             {TextFormat.Bytes(SizeBytes ?? 0)}");
        output.WriteLine($"classic Bloom    {Classic.Describe()}");
        output.WriteLine($"blocked (ours)   {Blocked.Describe()}");
        if (TargetFalsePositiveRate is not null && Blocked.SizeBytes is { } size)
        {
            output.WriteLine($"configure        stream-existence-filter-size = {size}");
        }
    }
}

/// <summary>One model's answer.</summary>
/// <param name="Model">How it was computed.</param>
/// <param name="SizeBytes">The size; null when it would exceed the largest filter.</param>
/// <param name="BitsPerStream">Filter bits per stream at that size.</param>
/// <param name="K">Bits set per stream.</param>
/// <param name="FalsePositiveRate">The expected rate at that size and k.</param>
internal sealed record SizingEstimate(string Model, long? SizeBytes, double? BitsPerStream, int K, double? FalsePositiveRate)
{
    public string Describe()
    {
        if (SizeBytes is not { } size || FalsePositiveRate is not { } rate)
        {
            return $"beyond the largest filter ({Model})";
        }

        return $"{TextFormat.Bytes(size)}, {TextFormat.Fixed(BitsPerStream ?? 0, 2)} bits per stream, k {K}: {TextFormat.Percent(rate)} false positives ({Model})";
    }
}
