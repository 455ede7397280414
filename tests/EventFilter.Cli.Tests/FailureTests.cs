namespace EventFilter.Cli.Tests;

/// <summary>Every bad input: one line on stderr, exit code 2, no stack trace.</summary>
public sealed class FailureTests(SampleFilters files) : IClassFixture<SampleFilters>
{
    [Theory]
    [InlineData("inspect")]
    [InlineData("verify")]
    [InlineData("repair")]
    [InlineData("check")]
    public void A_missing_file_fails_in_one_line(string command)
    {
        string[] args = command == "check" ? [command, files.Scratch("missing.filter"), "name"] : [command, files.Scratch("missing.filter")];

        CliRun.Of(args).AssertOneLineFailure("no such file");
    }

    [Theory]
    [InlineData("inspect")]
    [InlineData("verify")]
    [InlineData("repair")]
    public void A_truncated_file_fails_in_one_line(string command)
    {
        CliRun.Of(command, files.Truncated).AssertOneLineFailure("truncated");
    }

    [Fact]
    public void An_empty_file_fails_in_one_line()
    {
        string path = files.Scratch("empty.filter");
        File.WriteAllBytes(path, []);

        CliRun.Of("verify", path).AssertOneLineFailure("truncated");
    }

    [Fact]
    public void A_directory_instead_of_a_file_fails_in_one_line()
    {
        Assert.Equal(2, CliRun.Of("verify", Path.GetTempPath()).ExitCode);
    }

    [Fact]
    public void Inspect_with_a_garbage_checkpoint_exits_2_and_says_so_in_one_line()
    {
        string path = FilterFiles.CopyTo(files.Healthy, files.Scratch("garbage-checkpoint.filter"));
        File.WriteAllBytes(CheckpointFile.PathFor(path), new byte[64]);

        CliRun run = CliRun.Of("inspect", path);

        Assert.Equal(2, run.ExitCode);
        Assert.Contains("INVALID", run.Stdout, StringComparison.Ordinal);
        Assert.Contains("invalid checkpoint", Assert.Single(run.ErrorLines), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData]
    [InlineData("frobnicate")]
    [InlineData("verify")]
    [InlineData("verify", "a", "b")]
    [InlineData("verify", "x.filter", "--threshold", "1.5")]
    [InlineData("inspect", "x.filter", "--no-such-option")]
    public void Bad_arguments_are_a_usage_error_with_exit_2(params string[] args)
    {
        CliRun run = CliRun.Of(args);

        Assert.Equal(2, run.ExitCode);
        Assert.Contains("usage error", run.Stderr, StringComparison.Ordinal);
        Assert.Contains("--help' for usage", run.Stderr, StringComparison.Ordinal);
    }

    [Fact]
    public void Help_exits_0()
    {
        CliRun run = CliRun.Of("verify", "--help");

        Assert.Equal(0, run.ExitCode);
        Assert.Contains("eventfilter verify <file>", run.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void The_real_process_reports_a_garbage_file_in_one_line_without_a_stack_trace()
    {
        CliRun.OfProcess("verify", files.Garbage).AssertOneLineFailure("not a filter file");
    }
}
