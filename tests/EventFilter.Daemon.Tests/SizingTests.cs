using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Tests;

/// <summary>How eventfilterd sizes a filter's layers beside RedisBloom (docs/daemon-design.md, "Sizing").</summary>
public sealed class SizingTests
{
    // RedisBloom 2.4.23's BF.INFO Size for capacity 10,000,000 (scaling, non-scaling), taken with the module loaded into
    // redis-server: BF.RESERVE k RATE 10000000 [NONSCALING], then BF.INFO k SIZE.
    [Theory]
    [InlineData(1e-1, 7_794_128, 5_990_760)]
    [InlineData(1e-2, 13_784_792, 11_981_424)]
    [InlineData(1e-3, 19_775_456, 17_972_088)]
    [InlineData(1e-4, 25_766_112, 23_962_744)]
    [InlineData(1e-5, 31_756_776, 29_953_408)]
    [InlineData(1e-6, 37_747_440, 35_944_072)]
    [InlineData(1e-7, 43_738_096, 41_934_728)]
    public void A_new_filter_is_within_ten_percent_of_RedisBloom_in_both_modes(double rate, long redisScaling, long redisNonScaling)
    {
        FilterFileOptions scaling = new FilterParameters(10_000_000, rate, 2, NonScaling: false).LayerOptions(0)!;
        FilterFileOptions nonScaling = new FilterParameters(10_000_000, rate, 2, NonScaling: true).LayerOptions(0)!;

        Assert.InRange(scaling.SizeBytes, 1, redisScaling * 1.1);
        Assert.InRange(nonScaling.SizeBytes, 1, redisNonScaling * 1.1);
        Assert.InRange(nonScaling.LinesPerKey, 1, FilterFileOptions.MaxLinesPerKey);
    }

    [Fact]
    public void A_layer_meets_its_rate_by_the_model_and_one_line_is_taken_where_it_costs_little()
    {
        // At 10% one line per key is within 10% of the standard bound; at 1% it is not (its checksums take 4 of 64 bytes).
        FilterFileOptions options = new FilterParameters(1_000_000, 0.1, 2, NonScaling: true).LayerOptions(0)!;
        long lines = (options.SizeBytes / 64) - 1;

        Assert.Equal(1, options.LinesPerKey);
        Assert.Equal(2, new FilterParameters(1_000_000, 0.01, 2, NonScaling: true).LayerOptions(0)!.LinesPerKey);
        Assert.True(FalsePositiveModel.Expected(1_000_000, lines, options.K, options.LinesPerKey) <= 0.1);
        Assert.True(FalsePositiveModel.Expected(1_000_000, lines - 1, options.K, options.LinesPerKey) > 0.1);
    }

    [Fact]
    public void A_scaling_filter_builds_its_first_layer_for_half_the_rate_and_a_non_scaling_one_for_the_rate()
    {
        var scaling = new FilterParameters(1000, 0.01, 2, NonScaling: false);
        var nonScaling = scaling with { NonScaling = true };

        Assert.Equal([0.005, 0.0025, 0.00125], Enumerable.Range(0, 3).Select(scaling.LayerErrorRate));
        Assert.Equal(0.01, nonScaling.LayerErrorRate(0));
    }

    [Fact]
    public void A_filter_made_before_keeps_its_rates_and_sizes()
    {
        // The one-line rules: layer i at error_rate * 0.5^i; capacity 1,000 at 0.001 took 2,176 bytes in both modes.
        var old = new FilterParameters(1000, 0.001, 2, NonScaling: false, FilterParameters.OneLineSizing);

        Assert.Equal(0.001, old.LayerErrorRate(0));
        Assert.Equal(2_176, old.LayerOptions(0)!.SizeBytes);
        Assert.Equal(2_176, (old with { NonScaling = true }).LayerOptions(0)!.SizeBytes);
        Assert.Equal(1, old.LayerOptions(3)!.LinesPerKey);
    }

    [Theory]
    [InlineData(FilterParameters.OneLineSizing)]
    [InlineData(FilterParameters.SpreadSizing)]
    public void The_digest_log_header_keeps_the_sizing_rules(int sizing)
    {
        var parameters = new FilterParameters(1000, 0.001, 4, NonScaling: true, sizing);
        byte[] header = new byte[DigestLogFormat.HeaderLength];
        DigestLogFormat.WriteHeader(header, parameters);

        Assert.Equal(sizing, BitConverter.ToInt32(header, 8)); // the header's version
        Assert.True(DigestLogFormat.TryReadHeader(header, out FilterParameters read));
        Assert.Equal(parameters, read);
    }

    [Fact]
    public void A_digest_log_header_of_an_unknown_version_is_refused()
    {
        byte[] header = new byte[DigestLogFormat.HeaderLength];
        DigestLogFormat.WriteHeader(header, new FilterParameters(1000, 0.001, 2, NonScaling: false, Sizing: 3));

        Assert.False(DigestLogFormat.TryReadHeader(header, out _));
    }
}
