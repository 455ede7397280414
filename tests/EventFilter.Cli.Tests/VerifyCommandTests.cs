using System.Text.Json;

namespace EventFilter.Cli.Tests;

public sealed class VerifyCommandTests(SampleFilters files) : IClassFixture<SampleFilters>
{
    [Fact]
    public void Verify_of_a_healthy_file_exits_0()
    {
        CliRun run = CliRun.Of("verify", files.Healthy, "--json");

        Assert.Equal(0, run.ExitCode);
        JsonElement json = run.Json();
        Assert.Equal("clean", json.GetProperty("integrity").GetString());
        Assert.Equal(SampleFilters.Lines, json.GetProperty("linesChecked").GetInt64());
        Assert.Equal(0, json.GetProperty("mismatchedLines").GetInt64());
        Assert.Equal(0, json.GetProperty("exitCode").GetInt32());
    }

    [Fact]
    public void Verify_with_1_percent_corrupted_exits_1_and_names_the_first_bad_lines()
    {
        CliRun run = CliRun.Of("verify", files.Light, "--json");

        Assert.Equal(1, run.ExitCode);
        JsonElement json = run.Json();
        Assert.Equal("corrupted", json.GetProperty("integrity").GetString());
        Assert.Equal(files.LightBadLines.Length, json.GetProperty("mismatchedLines").GetInt64());
        Assert.False(json.GetProperty("rebuildRequired").GetBoolean());
        long[] firstBad = json.GetProperty("firstBadLines").EnumerateArray().Select(e => e.GetInt64()).ToArray();
        Assert.Equal(files.LightBadLines.Take(firstBad.Length), firstBad);
    }

    [Fact]
    public void Verify_text_lists_bad_lines_and_says_what_to_do()
    {
        CliRun run = CliRun.Of("verify", files.Light);

        Assert.Equal(1, run.ExitCode);
        Assert.Contains($"mismatched       {files.LightBadLines.Length} (first: {files.LightBadLines[0]},", run.Stdout, StringComparison.Ordinal);
        Assert.Contains("eventfilter repair", run.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void Verify_with_10_percent_corrupted_exits_2_rebuild_required()
    {
        CliRun run = CliRun.Of("verify", files.Heavy, "--json");

        Assert.Equal(2, run.ExitCode);
        JsonElement json = run.Json();
        Assert.Equal("rebuild-required", json.GetProperty("integrity").GetString());
        Assert.True(json.GetProperty("rebuildRequired").GetBoolean());
        Assert.Equal(files.HeavyBadLines.Length, json.GetProperty("corruptedLines").GetInt64());
    }

    [Fact]
    public void Verify_threshold_moves_the_verdict()
    {
        Assert.Equal(1, CliRun.Of("verify", files.Heavy, "--threshold", "20%").ExitCode);
        Assert.Equal(2, CliRun.Of("verify", files.Light, "--threshold", "0.005").ExitCode);
    }

    [Fact]
    public void Verify_of_a_garbage_file_exits_2_in_one_line()
    {
        CliRun.Of("verify", files.Garbage).AssertOneLineFailure("invalid header");
    }

    [Fact]
    public void Verify_with_a_garbage_checkpoint_exits_2_but_still_reports_the_lines()
    {
        string path = FilterFiles.CopyTo(files.Healthy, files.Scratch("garbage-checkpoint.filter"));
        File.WriteAllText(CheckpointFile.PathFor(path), "this is not a checkpoint");

        CliRun run = CliRun.Of("verify", path, "--json");

        Assert.Equal(2, run.ExitCode);
        Assert.Equal("invalid", run.Json().GetProperty("checkpoint").GetProperty("status").GetString());
        Assert.Equal("clean", run.Json().GetProperty("integrity").GetString());
        Assert.Contains("invalid checkpoint", Assert.Single(run.ErrorLines), StringComparison.Ordinal);
    }
}
