using System.Text.RegularExpressions;

namespace EventFilter.Cli.Tests;

/// <summary>
/// Each package's README is its page on the package feed, where the repository's other files are not: it must read
/// on its own, with no relative link and no pointer to a file under docs/.
/// </summary>
public sealed partial class PackageReadmeTests
{
    public static TheoryData<string> PackedReadmes() => [.. PackedReadmePaths()];

    [Fact]
    public void The_three_packages_pack_a_readme()
    {
        Assert.Superset(
            new HashSet<string> { Path.Combine("src", "EventFilter", "README.md"), Path.Combine("src", "EventFilter.Hosting", "README.md"), Path.Combine("src", "EventFilter.Cli", "README.md") },
            PackedReadmePaths().ToHashSet());
    }

    [Theory]
    [MemberData(nameof(PackedReadmes))]
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

    /// <summary>The README of every project under src/ that packs one (PackageReadmeFile), relative to the repository.</summary>
    private static IEnumerable<string> PackedReadmePaths() =>
        Directory.EnumerateFiles(Path.Combine(RepositoryFiles.Root, "src"), "*.csproj", SearchOption.AllDirectories)
            .Where(project => File.ReadAllText(project).Contains("<PackageReadmeFile>README.md</PackageReadmeFile>", StringComparison.Ordinal))
            .Select(project => Path.GetRelativePath(RepositoryFiles.Root, Path.Combine(Path.GetDirectoryName(project)!, "README.md")))
            .Order(StringComparer.Ordinal);
}
