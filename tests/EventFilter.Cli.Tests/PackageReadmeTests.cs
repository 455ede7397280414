using System.Text.RegularExpressions;

namespace EventFilter.Cli.Tests;

/// <summary>
/// Each package's README is its page on the package feed, where the repository's other files are not: it must read
/// on its own, with no relative link and no pointer to a file under docs/.
/// </summary>
public sealed partial class PackageReadmeTests
{
    [Theory]
    [InlineData("src/EventFilter/README.md")]
    [InlineData("src/EventFilter.Hosting/README.md")]
    [InlineData("src/EventFilter.Cli/README.md")]
    public void A_packed_readme_links_nothing_outside_its_package(string path)
    {
        string text = File.ReadAllText(Path.Combine(RepositoryFiles.Root, path));

        Assert.Empty(RelativeLink().Matches(text).Select(match => match.Value));
        Assert.Empty(DocsPath().Matches(text).Select(match => match.Value));
    }

    /// <summary>A markdown link or image whose target is not an absolute http(s) URL.</summary>
    [GeneratedRegex(@"\]\((?!https?://)[^)]*\)")]
    private static partial Regex RelativeLink();

    [GeneratedRegex(@"\bdocs/[\w./-]*")]
    private static partial Regex DocsPath();
}
