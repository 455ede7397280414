using System.Text.Json;

namespace EventFilter.Cli.Tests;

public sealed class SizingCommandTests
{
    [Fact]
    public void Sizing_for_a_target_rate_gives_the_classic_formula_and_the_blocked_model()
    {
        CliRun run = CliRun.Of("sizing", "--streams", "10M", "--fp", "1%", "--json");

        Assert.Equal(0, run.ExitCode);
        JsonElement json = run.Json();
        double classicBits = Math.Ceiling(-10_000_000 * Math.Log(0.01) / (Math.Log(2) * Math.Log(2)));
        Assert.Equal((long)Math.Ceiling(classicBits / 8), json.GetProperty("classic").GetProperty("sizeBytes").GetInt64());
        Assert.Equal(FalsePositiveModel.SettingFor(10_000_000, 0.01, 8), json.GetProperty("blocked").GetProperty("sizeBytes").GetInt64());
        Assert.InRange(json.GetProperty("blocked").GetProperty("falsePositiveRate").GetDouble(), 0.009, 0.01);
        Assert.Equal(StreamExistenceFilterOptions.DefaultK, json.GetProperty("blocked").GetProperty("k").GetInt32());
        Assert.Equal(8, StreamExistenceFilterOptions.DefaultK);
    }

    [Fact]
    public void Sizing_for_a_size_gives_the_rate_it_buys()
    {
        CliRun run = CliRun.Of("sizing", "--streams", "256M", "--size", "256MB", "--json");

        Assert.Equal(0, run.ExitCode);
        JsonElement json = run.Json();
        Assert.Equal(256_000_000, json.GetProperty("sizeBytes").GetInt64());
        Assert.InRange(json.GetProperty("classic").GetProperty("falsePositiveRate").GetDouble(), 0.02, 0.023);
        Assert.Equal(FalsePositiveModel.Expected(256_000_000, (256_000_000 + 59) / 60, 8), json.GetProperty("blocked").GetProperty("falsePositiveRate").GetDouble(), 12);
    }

    [Fact]
    public void Sizing_defaults_to_a_1_percent_target()
    {
        CliRun run = CliRun.Of("sizing", "-n", "1000000");

        Assert.Equal(0, run.ExitCode);
        Assert.Contains("target rate      1.00%", run.Stdout, StringComparison.Ordinal);
        Assert.Contains("stream-existence-filter-size = ", run.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void Sizing_a_trillion_streams_says_no_filter_is_that_large()
    {
        CliRun run = CliRun.Of("sizing", "--streams", "1T", "--json");

        Assert.Equal(0, run.ExitCode);
        JsonElement blocked = run.Json().GetProperty("blocked");
        Assert.Equal(JsonValueKind.Null, blocked.GetProperty("sizeBytes").ValueKind);
        Assert.Equal(JsonValueKind.Null, blocked.GetProperty("falsePositiveRate").ValueKind);
    }

    [Fact]
    public void Sizing_a_trillion_streams_at_a_loose_rate_gives_a_size_that_meets_it()
    {
        // At k = 6: the default k = 8 fills the largest file's lines too fast to reach 75% at this load.
        CliRun run = CliRun.Of("sizing", "--streams", "1T", "--fp", "75%", "--k", "6", "--json");

        Assert.Equal(0, run.ExitCode);
        JsonElement blocked = run.Json().GetProperty("blocked");
        Assert.Equal(FalsePositiveModel.SettingFor(1e12, 0.75, 6), blocked.GetProperty("sizeBytes").GetInt64());
        Assert.InRange(blocked.GetProperty("falsePositiveRate").GetDouble(), 0.74, 0.75);
    }

    [Fact]
    public void Sizing_a_trillion_streams_in_the_smallest_file_rates_it_at_one()
    {
        CliRun run = CliRun.Of("sizing", "--streams", "1T", "--size", "128", "--json");

        Assert.Equal(0, run.ExitCode);
        Assert.Equal(1.0, run.Json().GetProperty("blocked").GetProperty("falsePositiveRate").GetDouble(), 15);
    }

    [Theory]
    [InlineData("sizing")]
    [InlineData("sizing", "--streams", "0")]
    [InlineData("sizing", "--streams", "ten")]
    [InlineData("sizing", "--streams", "10M", "--fp", "2")]
    [InlineData("sizing", "--streams", "10M", "--fp", "1%", "--size", "1GB")]
    [InlineData("sizing", "--streams", "10M", "--size", "12")]
    [InlineData("sizing", "--streams", "10M", "--size", "12XB")]
    [InlineData("sizing", "--streams", "10M", "--k", "0")]
    [InlineData("sizing", "--streams", "10M", "--k", "six")]
    public void Sizing_with_bad_arguments_is_a_usage_error(params string[] args)
    {
        CliRun run = CliRun.Of(args);

        Assert.Equal(2, run.ExitCode);
        Assert.Equal(string.Empty, run.Stdout);
        Assert.Contains("usage error", run.Stderr, StringComparison.Ordinal);
    }
}
