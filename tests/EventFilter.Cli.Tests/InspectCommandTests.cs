using System.Text.Json;

namespace EventFilter.Cli.Tests;

public sealed class InspectCommandTests(SampleFilters files) : IClassFixture<SampleFilters>
{
    [Fact]
    public void Inspect_json_of_a_healthy_file_reports_header_fill_estimates_and_current_checkpoint()
    {
        CliRun run = CliRun.Of("inspect", files.Healthy, "--json");

        Assert.Equal(0, run.ExitCode);
        Assert.Equal(string.Empty, run.Stderr);
        JsonElement json = run.Json();
        Assert.Equal(SampleFilters.SizeBytes, json.GetProperty("sizeBytes").GetInt64());
        Assert.Equal(SampleFilters.Lines, json.GetProperty("lines").GetInt64());
        Assert.Equal(FilterFileOptions.DefaultK, json.GetProperty("k").GetInt32());
        Assert.True(json.GetProperty("bitsSet").GetInt64() > 0);
        Assert.InRange(json.GetProperty("fillRatio").GetDouble(), 0.1, 0.9);
        Assert.InRange(json.GetProperty("estimatedStreams").GetInt64(), SampleFilters.Names * 0.95, SampleFilters.Names * 1.05);
        Assert.InRange(json.GetProperty("estimatedFalsePositiveRate").GetDouble(), 1e-5, 0.01);
        Assert.Equal(SampleFilters.SizeBytes, json.GetProperty("nominalCapacityStreams").GetInt64());
        Assert.InRange(json.GetProperty("falsePositiveRateAtNominalCapacity").GetDouble(), 0.02, 0.04);
        Assert.Equal(0, json.GetProperty("corruptedLines").GetInt64());
        Assert.Equal("clean", json.GetProperty("integrity").GetString());
        JsonElement checkpoint = json.GetProperty("checkpoint");
        Assert.Equal("current", checkpoint.GetProperty("status").GetString());
        Assert.Equal(SampleFilters.CheckpointPosition, checkpoint.GetProperty("position").GetInt64());
    }

    [Fact]
    public void Inspect_text_names_every_section()
    {
        CliRun run = CliRun.Of("inspect", files.Healthy);

        Assert.Equal(0, run.ExitCode);
        foreach (string label in new[] { "size", "bits set", "streams", "false positives", "integrity", "checkpoint" })
        {
            Assert.Contains(label, run.Stdout, StringComparison.Ordinal);
        }

        Assert.Contains("position 4,242 (current)", run.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void Inspect_estimates_a_million_streams_within_5_percent()
    {
        const int streams = 1_000_000;
        string path = FilterFiles.Healthy(files.Scratch("million.filter"), streams, sizeBytes: 1_000_000);

        JsonElement json = CliRun.Of("inspect", path, "--json").Json();

        Assert.InRange(json.GetProperty("estimatedStreams").GetInt64(), streams * 0.95, streams * 1.05);
    }

    [Fact]
    public void Inspect_counts_corrupted_lines_but_exits_0_because_verify_gives_the_verdict()
    {
        CliRun light = CliRun.Of("inspect", files.Light, "--json");
        CliRun heavy = CliRun.Of("inspect", files.Heavy, "--json");

        Assert.Equal(0, light.ExitCode);
        Assert.Equal(files.LightBadLines.Length, light.Json().GetProperty("corruptedLines").GetInt64());
        Assert.Equal("corrupted", light.Json().GetProperty("integrity").GetString());
        Assert.Equal(0, heavy.ExitCode);
        Assert.Equal(files.HeavyBadLines.Length, heavy.Json().GetProperty("corruptedLines").GetInt64());
        Assert.Equal("rebuild-required", heavy.Json().GetProperty("integrity").GetString());
    }

    [Fact]
    public void Inspect_reports_null_checkpoint_when_there_is_none()
    {
        string path = files.Scratch("no-checkpoint.filter");
        File.Copy(files.Healthy, path, overwrite: true);

        CliRun run = CliRun.Of("inspect", path, "--json");

        Assert.Equal(0, run.ExitCode);
        Assert.Equal(JsonValueKind.Null, run.Json().GetProperty("checkpoint").ValueKind);
    }

    [Fact]
    public void Inspect_flags_a_stale_checkpoint_with_a_warning()
    {
        string path = FilterFiles.CopyTo(files.Healthy, files.Scratch("stale.filter"));
        CheckpointFile.Write(CheckpointFile.PathFor(path), new Checkpoint(77, Guid.NewGuid()));

        CliRun run = CliRun.Of("inspect", path, "--json");

        Assert.Equal(0, run.ExitCode);
        Assert.Equal("stale", run.Json().GetProperty("checkpoint").GetProperty("status").GetString());
        Assert.Contains("warning", Assert.Single(run.ErrorLines), StringComparison.Ordinal);
    }

    [Fact]
    public void Inspect_of_a_garbage_file_fails_in_one_line()
    {
        CliRun.Of("inspect", files.Garbage).AssertOneLineFailure("not a filter file");
        CliRun.Of("inspect", files.Garbage, "--json").AssertJsonFailure("not a filter file");
    }
}
