using System.Text.RegularExpressions;

namespace FileLogWorker.Tests;

/// <summary>
/// docs/hosting-guide.md shows the sample's files verbatim: each code block introduced by <c>&lt;!-- from PATH --&gt;</c>
/// must equal that file, so the guide cannot drift from the code CI builds and tests.
/// </summary>
public sealed partial class HostingGuideTests
{
    [Fact]
    public void Every_file_the_guide_shows_is_the_file_in_the_repository()
    {
        string root = RepositoryRoot();
        string guide = File.ReadAllText(Path.Combine(root, "docs", "hosting-guide.md")).ReplaceLineEndings("\n");
        // This worker's five files; the database chapter's excerpts are checked by PostgresEventStore.Tests.
        Match[] blocks = [.. FromFile().Matches(guide).Where(block => !block.Groups["path"].Value.Contains("PostgresEventStore", StringComparison.Ordinal))];

        Assert.Equal(5, blocks.Length);
        foreach (Match block in blocks)
        {
            string path = block.Groups["path"].Value;
            string file = File.ReadAllText(Path.Combine(root, path)).ReplaceLineEndings("\n").TrimEnd('\n');
            Assert.True(file == block.Groups["code"].Value, $"docs/hosting-guide.md shows {path} differently from the file: copy the file into the guide.");
        }
    }

    internal static string RepositoryRoot()
    {
        string? directory = AppContext.BaseDirectory;
        while (directory is not null && !File.Exists(Path.Combine(directory, "EventFilter.sln")))
        {
            directory = Path.GetDirectoryName(directory);
        }

        return directory ?? throw new InvalidOperationException("EventFilter.sln not found above the test's directory.");
    }

    [GeneratedRegex(@"<!-- from (?<path>[^ ]+) -->\n```[a-z]*\n(?<code>.*?)\n```", RegexOptions.Singleline)]
    private static partial Regex FromFile();
}
