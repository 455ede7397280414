using System.Text.Json;

namespace EventFilter.Cli.Tests;

public sealed class CheckCommandTests(SampleFilters files) : IClassFixture<SampleFilters>
{
    [Fact]
    public void Check_answers_maybe_for_written_streams_and_matches_the_filter_for_the_rest()
    {
        string[] written = [FilterFiles.Added(0), FilterFiles.Added(123), FilterFiles.Added(49_999)];
        string[] absent = Enumerable.Range(0, 20).Select(FilterFiles.Absent).ToArray();

        CliRun run = CliRun.Of(["check", files.Healthy, .. written, .. absent, "--json"]);

        Assert.Equal(0, run.ExitCode);
        JsonElement[] results = run.Json().GetProperty("results").EnumerateArray().ToArray();
        Assert.Equal(written.Length + absent.Length, results.Length);
        Assert.All(results.Take(written.Length), r => Assert.Equal("maybe", r.GetProperty("answer").GetString()));
        using FilterFile filter = FilterFile.OpenExisting(files.Healthy);
        for (int i = 0; i < absent.Length; i++)
        {
            JsonElement result = results[written.Length + i];
            Assert.Equal(absent[i], result.GetProperty("name").GetString());
            Assert.Equal(filter.MightExist(absent[i]), result.GetProperty("mightExist").GetBoolean());
        }

        // At 16 bits per name about 0.2% of absent names answer "maybe"; most of these twenty must not.
        Assert.True(results.Skip(written.Length).Count(r => r.GetProperty("answer").GetString() == "definitely-not") >= 15);
    }

    [Fact]
    public void Check_text_prints_one_answer_per_line()
    {
        CliRun run = CliRun.Of("check", files.Healthy, FilterFiles.Added(5), FilterFiles.Absent(5));

        Assert.Equal(0, run.ExitCode);
        string[] lines = run.Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, lines.Length);
        Assert.StartsWith("maybe", lines[0], StringComparison.Ordinal);
        Assert.EndsWith(FilterFiles.Added(5), lines[0], StringComparison.Ordinal);
    }

    [Fact]
    public void Check_on_a_corrupted_file_answers_maybe_for_everything_and_exits_1()
    {
        string[] absent = Enumerable.Range(0, 20).Select(FilterFiles.Absent).ToArray();

        CliRun run = CliRun.Of(["check", files.Light, .. absent, "--json"]);

        Assert.Equal(1, run.ExitCode);
        Assert.All(run.Json().GetProperty("results").EnumerateArray(), r => Assert.True(r.GetProperty("mightExist").GetBoolean()));
        Assert.Contains("fail their checksum", Assert.Single(run.ErrorLines), StringComparison.Ordinal);
    }

    [Fact]
    public void Check_of_a_heavily_corrupted_file_still_never_says_definitely_not()
    {
        CliRun run = CliRun.Of("check", files.Heavy, FilterFiles.Absent(1), "--json");

        Assert.Equal(1, run.ExitCode);
        Assert.Equal("maybe", run.Json().GetProperty("results")[0].GetProperty("answer").GetString());
    }

    [Fact]
    public void Check_of_a_garbage_file_exits_2_in_one_line()
    {
        CliRun.Of("check", files.Garbage, "x").AssertOneLineFailure("invalid header");
    }

    [Fact]
    public void Check_without_names_is_a_usage_error()
    {
        CliRun run = CliRun.Of("check", files.Healthy);

        Assert.Equal(2, run.ExitCode);
        Assert.Contains("usage error", run.Stderr, StringComparison.Ordinal);
    }
}
