using System.Text.Json;

namespace EventFilter.Cli.Tests;

/// <summary>
/// The --json contract of docs/operations.md, "JSON output": each command's fields, in order, one name per concept
/// (the line verdict is `integrity` everywhere, the journal `journal`), `exitCode` in every object and equal to the
/// process's, and a failure as `{ "error", "exitCode" }` on stdout besides the line on stderr.
/// </summary>
public sealed class JsonShapeTests(SampleFilters files) : IClassFixture<SampleFilters>
{
    private static readonly string[] CheckpointFields = ["path", "status", "position", "filterFileId", "problem"];
    private static readonly string[] JournalFields = ["status", "files", "lineRecords", "commits", "bytes", "position", "damage"];

    [Fact]
    public void Inspect_fields()
    {
        CliRun run = CliRun.Of("inspect", files.Healthy, "--json");

        AssertFields(run, [
            "path", "version", "sizeBytes", "fileLength", "lines", "k", "linesPerKey", "seed", "fileId", "bitsSet", "totalBits", "fillRatio",
            "estimatedStreams", "estimatedFalsePositiveRate", "nominalCapacityStreams", "falsePositiveRateAtNominalCapacity",
            "mismatchedLines", "allOnesLines", "corruptedLines", "corruptedFraction", "firstBadLines", "threshold", "integrity",
            "checkpoint", "journal", "exitCode"]);
        Assert.Equal("clean", run.Json().GetProperty("integrity").GetString());
        Assert.Equal(CheckpointFields, Names(run.Json().GetProperty("checkpoint")));
        Assert.Equal(JournalFields, Names(run.Json().GetProperty("journal")));
    }

    [Fact]
    public void Verify_fields()
    {
        CliRun run = CliRun.Of("verify", files.Light, "--json");

        Assert.Equal(1, run.ExitCode);
        AssertFields(run, [
            "path", "sizeBytes", "lines", "k", "fileId", "linesChecked", "mismatchedLines", "allOnesLines", "corruptedLines",
            "corruptedFraction", "threshold", "firstBadLines", "rebuildRequired", "integrity", "checkpoint", "journal", "exitCode"]);
        Assert.Equal("corrupted", run.Json().GetProperty("integrity").GetString());
        Assert.Equal(JournalFields, Names(run.Json().GetProperty("journal")));
    }

    [Fact]
    public void Repair_fields()
    {
        string path = FilterFiles.CopyTo(files.Heavy, files.Scratch("json-repair.filter"));

        CliRun run = CliRun.Of("repair", path, "--json");

        Assert.Equal(2, run.ExitCode);
        AssertFields(run, [
            "path", "linesChecked", "repairedLines", "firstRepairedLines", "allOnesLines", "corruptedLines", "corruptedFraction",
            "threshold", "rebuildRequired", "integrity", "journal", "exitCode"]);
        Assert.Equal("rebuild-required", run.Json().GetProperty("integrity").GetString());
        Assert.Equal(JournalFields, Names(run.Json().GetProperty("journal")));
    }

    [Fact]
    public void Check_fields()
    {
        CliRun run = CliRun.Of("check", files.Healthy, "--json", FilterFiles.Added(0));

        AssertFields(run, ["path", "mismatchedLines", "results", "exitCode"]);
        Assert.Equal(["name", "mightExist", "answer"], Names(run.Json().GetProperty("results")[0]));
    }

    [Fact]
    public void Check_of_a_corrupted_file_carries_exit_code_1()
    {
        CliRun run = CliRun.Of("check", files.Light, "--json", FilterFiles.Added(0));

        Assert.Equal(1, run.ExitCode);
        Assert.Equal(1, run.Json().GetProperty("exitCode").GetInt32());
    }

    [Fact]
    public void Sizing_fields()
    {
        CliRun run = CliRun.Of("sizing", "--streams", "1M", "--json");

        AssertFields(run, ["streams", "targetFalsePositiveRate", "sizeBytes", "classic", "blocked", "exitCode"]);
        Assert.Equal(["model", "sizeBytes", "bitsPerStream", "k", "falsePositiveRate"], Names(run.Json().GetProperty("blocked")));
    }

    [Theory]
    [InlineData("inspect")]
    [InlineData("verify")]
    [InlineData("repair")]
    [InlineData("check")]
    public void A_missing_file_under_json_is_an_error_object_on_stdout(string command)
    {
        string[] args = command == "check" ? [command, files.Scratch("json-missing.filter"), "--json", "name"] : [command, files.Scratch("json-missing.filter"), "--json"];

        CliRun.Of(args).AssertJsonFailure("no such file");
    }

    [Fact]
    public void A_garbage_file_under_json_is_an_error_object_in_the_real_process()
    {
        CliRun.OfProcess("verify", files.Garbage, "--json").AssertJsonFailure("not a filter file");
    }

    [Fact]
    public void A_usage_error_under_json_is_an_error_object_too()
    {
        CliRun run = CliRun.Of("verify", files.Healthy, "--json", "--threshold", "2");

        Assert.Equal(2, run.ExitCode);
        JsonElement json = run.Json();
        Assert.Equal(["error", "exitCode"], Names(json));
        Assert.StartsWith("usage error: --threshold:", json.GetProperty("error").GetString(), StringComparison.Ordinal);
        Assert.Equal(2, json.GetProperty("exitCode").GetInt32());
    }

    [Fact]
    public void A_json_option_after_the_double_dash_is_a_name_and_errors_stay_off_stdout()
    {
        CliRun.Of("check", files.Scratch("json-missing-2.filter"), "--", "--json").AssertOneLineFailure("no such file");
    }

    private static void AssertFields(CliRun run, string[] expected)
    {
        JsonElement json = run.Json();
        Assert.Equal(expected, Names(json));
        Assert.Equal(JsonValueKind.Number, json.GetProperty("exitCode").ValueKind);
        Assert.Equal(run.ExitCode, json.GetProperty("exitCode").GetInt32());
    }

    private static string[] Names(JsonElement json) => [.. json.EnumerateObject().Select(p => p.Name)];
}
