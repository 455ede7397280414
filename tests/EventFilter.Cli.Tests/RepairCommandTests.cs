using System.Text.Json;

namespace EventFilter.Cli.Tests;

public sealed class RepairCommandTests(SampleFilters files) : IClassFixture<SampleFilters>
{
    [Fact]
    public void Repair_of_1_percent_corruption_then_verify_exits_0()
    {
        string path = FilterFiles.CopyTo(files.Light, files.Scratch("repair-light.filter"));

        CliRun repair = CliRun.Of("repair", path, "--json");
        CliRun verify = CliRun.Of("verify", path, "--json");

        Assert.Equal(0, repair.ExitCode);
        JsonElement json = repair.Json();
        Assert.Equal("clean", json.GetProperty("integrity").GetString());
        Assert.Equal(files.LightBadLines.Length, json.GetProperty("repairedLines").GetInt64());
        Assert.Equal(0, verify.ExitCode);
        Assert.Equal(0, verify.Json().GetProperty("mismatchedLines").GetInt64());
        Assert.Equal(files.LightBadLines.Length, verify.Json().GetProperty("allOnesLines").GetInt64());
    }

    [Fact]
    public void Repair_keeps_every_added_name()
    {
        string path = FilterFiles.CopyTo(files.Light, files.Scratch("repair-names.filter"));

        Assert.Equal(0, CliRun.Of("repair", path).ExitCode);

        using FilterFile filter = FilterFile.OpenExisting(path);
        for (int i = 0; i < SampleFilters.Names; i++)
        {
            Assert.True(filter.MightExist(FilterFiles.Added(i)), $"name {i} lost by repair");
        }
    }

    [Fact]
    public void Repair_of_10_percent_corruption_repairs_but_exits_2_because_a_rebuild_is_still_needed()
    {
        string path = FilterFiles.CopyTo(files.Heavy, files.Scratch("repair-heavy.filter"));

        CliRun repair = CliRun.Of("repair", path, "--json");
        CliRun verify = CliRun.Of("verify", path, "--json");

        Assert.Equal(2, repair.ExitCode);
        Assert.Equal("rebuild-required", repair.Json().GetProperty("integrity").GetString());
        Assert.Equal(files.HeavyBadLines.Length, repair.Json().GetProperty("repairedLines").GetInt64());
        Assert.Equal(2, verify.ExitCode);
        Assert.Equal(0, verify.Json().GetProperty("mismatchedLines").GetInt64());
    }

    [Fact]
    public void Repair_of_a_file_whose_every_line_is_bad_still_repairs_them_all()
    {
        // The writable open repairs only below its threshold, which must be under 100%: pins the explicit second pass.
        string path = FilterFiles.Healthy(files.Scratch("one-line.filter"), names: 3, sizeBytes: 128);
        FilterFiles.Corrupt(path, 1.0);

        CliRun repair = CliRun.Of("repair", path, "--json");

        Assert.Equal(2, repair.ExitCode);
        Assert.Equal(1, repair.Json().GetProperty("repairedLines").GetInt64());
        Assert.Equal(0, CliRun.Of("verify", path, "--json").Json().GetProperty("mismatchedLines").GetInt64());
        using FilterFile filter = FilterFile.OpenExisting(path);
        Assert.True(filter.MightExist(FilterFiles.Added(0)));
    }

    [Fact]
    public void Repair_refuses_a_file_another_process_has_open_and_changes_nothing()
    {
        // A running server holds the file through FilterFile.Open; sharing modes alone would not stop a second writer on Unix.
        string path = FilterFiles.CopyTo(files.Light, files.Scratch("repair-busy.filter"));
        string before = FilterFiles.Fingerprint(path);
        using (var server = new FileStream(path, FileMode.Open, FileAccess.ReadWrite, FileShare.Read))
        {
            CliRun.Of("repair", path).AssertOneLineFailure("is the server running?");
        }

        Assert.Equal(before, FilterFiles.Fingerprint(path));
    }

    [Fact]
    public void Repair_of_a_healthy_file_changes_nothing()
    {
        string path = FilterFiles.CopyTo(files.Healthy, files.Scratch("repair-healthy.filter"));
        string before = FilterFiles.Fingerprint(path);

        CliRun run = CliRun.Of("repair", path);

        Assert.Equal(0, run.ExitCode);
        Assert.Contains("nothing to repair", run.Stdout, StringComparison.Ordinal);
        Assert.Equal(before, FilterFiles.Fingerprint(path));
    }

    [Fact]
    public void Repair_of_a_garbage_file_exits_2_and_leaves_it_alone()
    {
        string path = FilterFiles.CopyTo(files.Garbage, files.Scratch("repair-garbage.filter"));
        string before = FilterFiles.Fingerprint(path);

        CliRun.Of("repair", path).AssertOneLineFailure("not a filter file");
        Assert.Equal(before, FilterFiles.Fingerprint(path));
    }

    [Fact]
    public void Repair_of_a_missing_file_exits_2_and_creates_nothing()
    {
        string path = files.Scratch("never-existed.filter");

        CliRun.Of("repair", path).AssertOneLineFailure("no such file");
        Assert.False(File.Exists(path));
    }
}
