using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace FileLogWorker.Tests;

/// <summary>
/// The README and every page under docs/ link only to files that exist and to headings those files have (anchors as
/// GitHub makes them), and the pages under docs/ state the present: no issue, round or session number, no commit.
/// History goes to docs/decisions/, without those labels too. A page under docs/ outside docs/decisions/ has at most
/// 300 lines, but for the pages named in <see cref="LongPages"/>.
/// </summary>
public sealed partial class DocLinkTests
{
    private const int MaxPageLines = 300;

    /// <summary>
    /// The pages over <see cref="MaxPageLines"/> lines that are still to be split, each with its reason. No other page
    /// may pass the limit, and a page leaves this list once it is under it.
    /// </summary>
    private static readonly Dictionary<string, string> LongPages = new(StringComparer.Ordinal)
    {
        ["docs/daemon-design.md"] = "split pending",
        ["docs/daemon.md"] = "split pending",
        ["docs/design.md"] = "split pending",
        ["docs/hosting-guide.md"] = "split pending",
        ["docs/operations.md"] = "split pending",
        ["docs/server.md"] = "split pending",
    };

    public static TheoryData<string> Pages() => [.. PagePaths()];

    public static TheoryData<string> DocsPages() => [.. PagePaths().Where(path => path.StartsWith("docs/", StringComparison.Ordinal))];

    /// <summary>The pages under docs/ that state the present: all but the history in docs/decisions/.</summary>
    public static TheoryData<string> PresentPages() => [.. PagePaths().Where(path => path.StartsWith("docs/", StringComparison.Ordinal) && !path.StartsWith("docs/decisions/", StringComparison.Ordinal))];

    [Theory]
    [MemberData(nameof(Pages))]
    public void Every_relative_link_resolves_to_a_file_and_heading(string page)
    {
        string root = HostingGuideTests.RepositoryRoot();
        string directory = Path.GetDirectoryName(Path.Combine(root, page))!;
        var broken = new List<string>();
        foreach (string target in LinkTargets(File.ReadAllText(Path.Combine(root, page))))
        {
            string[] parts = target.Split('#', 2);
            string file = parts[0].Length == 0 ? Path.Combine(root, page) : Path.GetFullPath(Path.Combine(directory, Uri.UnescapeDataString(parts[0])));
            if (!File.Exists(file) && !Directory.Exists(file))
            {
                broken.Add($"{target}: no such file");
            }
            else if (parts.Length == 2 && file.EndsWith(".md", StringComparison.Ordinal) && !Anchors(File.ReadAllText(file)).Contains(parts[1]))
            {
                broken.Add($"{target}: no heading with that anchor");
            }
        }

        Assert.True(broken.Count == 0, $"{page} has broken links:\n{string.Join('\n', broken)}");
    }

    [Theory]
    [MemberData(nameof(DocsPages))]
    public void A_page_under_docs_names_no_issue_round_session_or_commit(string page)
    {
        string text = File.ReadAllText(Path.Combine(HostingGuideTests.RepositoryRoot(), page));
        string[] found = [.. History().Matches(text).Select(match => match.Value)];
        Assert.True(found.Length == 0, $"{page} tells history ({string.Join(", ", found)}): state the present, and put what was tried in docs/decisions/.");
    }

    [Theory]
    [MemberData(nameof(PresentPages))]
    public void A_page_under_docs_has_at_most_300_lines(string page)
    {
        int lines = File.ReadLines(Path.Combine(HostingGuideTests.RepositoryRoot(), page)).Count();
        Assert.True(
            lines <= MaxPageLines || LongPages.ContainsKey(page),
            $"{page} has {lines} lines, over {MaxPageLines}: split it by topic into pages that link to each other, and move history to docs/decisions/.");
    }

    [Fact]
    public void Every_page_let_past_the_line_limit_is_still_over_it()
    {
        string root = HostingGuideTests.RepositoryRoot();
        string[] stale = [.. LongPages.Keys.Where(page => !File.Exists(Path.Combine(root, page)) || File.ReadLines(Path.Combine(root, page)).Count() <= MaxPageLines)];
        Assert.True(stale.Length == 0, $"no longer over {MaxPageLines} lines, or gone: {string.Join(", ", stale)}; remove them from {nameof(LongPages)}.");
    }

    [Fact]
    public void Anchors_follow_GitHub()
    {
        Assert.Equal(
            ["the-host-contracts-cost-addname-recordend", "1-stream-creation-the-bloom-filters-in-eventstoredb-post", "hot-path", "hot-path-1"],
            Anchors("## The host contract's cost: `Add(name, recordEnd)`\n### 1. Stream creation (the \"Bloom Filters in EventStoreDB\" post)\n# Hot path\n```\n# not a heading\n```\n## Hot path\n"));
    }

    [Fact]
    public void Links_in_code_are_not_links()
    {
        Assert.Equal(["b.md#c", "d.png"], LinkTargets("[a](b.md#c) `[x](y)` ![i](d.png) [w](https://example.com)\n```\n[z](q)\n```\n"));
    }

    [Fact]
    public void History_labels_are_found()
    {
        Assert.Equal(4, History().Matches("issue 14, Round 2, session #3, commit 841ac50; round trips, 3 rounds, a commit record").Count);
    }

    /// <summary>README.md and every .md under docs/, relative to the repository, with forward slashes.</summary>
    private static IEnumerable<string> PagePaths()
    {
        string root = HostingGuideTests.RepositoryRoot();
        return Directory.EnumerateFiles(Path.Combine(root, "docs"), "*.md", SearchOption.AllDirectories)
            .Select(path => Path.GetRelativePath(root, path).Replace('\\', '/'))
            .Prepend("README.md")
            .Order(StringComparer.Ordinal);
    }

    /// <summary>The targets of inline links and images outside code, except absolute URLs.</summary>
    private static string[] LinkTargets(string markdown) =>
        [.. Link().Matches(InlineCode().Replace(WithoutFences(markdown), ""))
            .Select(match => match.Groups["target"].Value)
            .Where(target => !target.Contains("://", StringComparison.Ordinal) && !target.StartsWith("mailto:", StringComparison.Ordinal))];

    /// <summary>Each heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens, repeats numbered.</summary>
    private static List<string> Anchors(string markdown)
    {
        var anchors = new List<string>();
        var seen = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (Match heading in Heading().Matches(WithoutFences(markdown)))
        {
            var slug = new StringBuilder();
            foreach (char c in heading.Groups["text"].Value.Trim().ToLower(CultureInfo.InvariantCulture))
            {
                if (char.IsLetterOrDigit(c) || c is '-' or '_')
                {
                    slug.Append(c);
                }
                else if (c == ' ')
                {
                    slug.Append('-');
                }
            }

            string anchor = slug.ToString();
            int repeats = seen.GetValueOrDefault(anchor);
            seen[anchor] = repeats + 1;
            anchors.Add(repeats == 0 ? anchor : $"{anchor}-{repeats}");
        }

        return anchors;
    }

    private static string WithoutFences(string markdown) => Fence().Replace(markdown.ReplaceLineEndings("\n"), "");

    [GeneratedRegex(@"^ *```.*?^ *```[^\n]*$", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex Fence();

    [GeneratedRegex(@"`[^`\n]*`")]
    private static partial Regex InlineCode();

    [GeneratedRegex(@"!?\[[^\]]*\]\((?<target>[^)\s]+)\)")]
    private static partial Regex Link();

    [GeneratedRegex(@"^#{1,6} +(?<text>.+?) *#* *$", RegexOptions.Multiline)]
    private static partial Regex Heading();

    [GeneratedRegex(@"\b(issue|round|session)\s*#?\d+|commit [0-9a-f]{7}", RegexOptions.IgnoreCase)]
    private static partial Regex History();
}
