namespace EventFilter.Cli.Tests;

/// <summary>No command but repair changes a byte: not of the filter, not of its checkpoint, not the file's time.</summary>
public sealed class ReadOnlyTests(SampleFilters files) : IClassFixture<SampleFilters>
{
    public static TheoryData<string, string[]> ReadOnlyCommands => new()
    {
        { "healthy", ["inspect", "--json"] },
        { "healthy", ["verify"] },
        { "healthy", ["check", "a", "b"] },
        { "light", ["inspect"] },
        { "light", ["verify", "--json"] },
        { "light", ["check", "a"] },
        { "heavy", ["verify"] },
        { "heavy", ["inspect"] },
    };

    [Theory]
    [MemberData(nameof(ReadOnlyCommands))]
    public void Command_leaves_the_file_and_its_checkpoint_unchanged(string which, string[] command)
    {
        string path = which switch
        {
            "healthy" => files.Healthy,
            "light" => files.Light,
            _ => files.Heavy,
        };
        string before = FilterFiles.Fingerprint(path);

        CliRun.Of([command[0], path, .. command[1..]]);

        Assert.Equal(before, FilterFiles.Fingerprint(path));
    }

    [Fact]
    public void Sizing_creates_no_file()
    {
        string[] before = Directory.GetFiles(Path.GetDirectoryName(files.Healthy)!);

        CliRun.Of("sizing", "--streams", "1M", "--size", "1MB");

        Assert.Equal(before, Directory.GetFiles(Path.GetDirectoryName(files.Healthy)!));
    }
}
