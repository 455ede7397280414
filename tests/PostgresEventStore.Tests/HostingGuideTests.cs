using System.Text.RegularExpressions;

namespace PostgresEventStore.Tests;

/// <summary>
/// docs/hosting-guide.md's chapter on a database log shows this sample's files verbatim: each code block introduced by
/// <c>&lt;!-- from samples/PostgresEventStore/... --&gt;</c> must equal that file.
/// </summary>
public sealed partial class HostingGuideTests
{
    [Fact]
    public void Every_file_of_the_sample_the_guide_shows_is_the_file_in_the_repository()
    {
        string guide = File.ReadAllText(Path.Combine(RepositoryFiles.Root, "docs", "hosting-guide.md")).ReplaceLineEndings("\n");
        Match[] blocks = [.. FromFile().Matches(guide).Where(block => block.Groups["path"].Value.StartsWith("samples/PostgresEventStore/", StringComparison.Ordinal))];

        Assert.NotEmpty(blocks);
        foreach (Match block in blocks)
        {
            string path = block.Groups["path"].Value;
            string file = File.ReadAllText(Path.Combine(RepositoryFiles.Root, path)).ReplaceLineEndings("\n").TrimEnd('\n');
            Assert.True(file == block.Groups["code"].Value, $"docs/hosting-guide.md shows {path} differently from the file: copy the file into the guide.");
        }
    }

    [GeneratedRegex(@"<!-- from (?<path>[^ ]+) -->\n```[a-z]*\n(?<code>.*?)\n```", RegexOptions.Singleline)]
    private static partial Regex FromFile();
}
