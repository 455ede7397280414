using System.Text.RegularExpressions;

namespace FileLogWorker.Tests;

/// <summary>
/// Everything under src/ keeps the house's shape (STYLE.md): small files, and each piece of a type's state owned by
/// the file that declares it. Read from the tree the tests were built from.
/// </summary>
public sealed partial class SourceShapeTests
{
    private const int MaxLines = 300;

    [Fact]
    public void Every_source_file_is_under_300_lines()
    {
        string[] tooLong = [.. SourceFiles().Where(file => File.ReadLines(file).Count() >= MaxLines).Select(Relative)];
        Assert.True(tooLong.Length == 0, "over " + MaxLines + " lines: " + string.Join(", ", tooLong));
    }

    [Fact]
    public void No_partial_file_assigns_a_field_another_file_of_its_type_declares()
    {
        List<string> found = [];
        foreach (IGrouping<string, string> type in SourceFiles().SelectMany(file => PartialType().Matches(File.ReadAllText(file)).Select(m => (Type: m.Groups[1].Value, File: file))).GroupBy(t => t.Type, t => t.File))
        {
            var declaredIn = new Dictionary<string, string>();
            foreach (string file in type)
            {
                foreach (Match field in FieldDeclaration().Matches(File.ReadAllText(file)))
                {
                    declaredIn[field.Groups[1].Value] = file;
                }
            }

            foreach (string file in type)
            {
                string text = File.ReadAllText(file);
                found.AddRange(declaredIn.Where(d => d.Value != file && Assigns(text, d.Key)).Select(d => $"{type.Key}.{d.Key}: declared in {Relative(d.Value)}, assigned in {Relative(file)}"));
            }
        }

        Assert.True(found.Count == 0, string.Join("; ", found));
    }

    // An assignment, a compound one, ++/--, a deconstruction, an initializer, or the field passed by ref (not a call
    // through it, such as "ref _locks.Enter(line)", which returns a ref into the field's object).
    private static bool Assigns(string text, string field) =>
        Regex.IsMatch(text, $@"\b{field}\s*(=(?!=)|\+\+|--|[-+|&]=)|\bref\s+{field}\b(?!\s*[.\[])|[(,]\s*{field}\)\s*=(?!=)|\{{\s*{field}\s*=");

    private static IEnumerable<string> SourceFiles() =>
        Directory.EnumerateFiles(Path.Combine(RepositoryRoot, "src"), "*.cs", SearchOption.AllDirectories)
            .Where(file => !file.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal)
                && !file.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}", StringComparison.Ordinal));

    private static string Relative(string file) => Path.GetRelativePath(RepositoryRoot, file);

    private static string RepositoryRoot => HostingGuideTests.RepositoryRoot();

    [GeneratedRegex(@"\bpartial\s+(?:class|struct|record)\s+(\w+)")]
    private static partial Regex PartialType();

    [GeneratedRegex(@"^\s*(?:(?:private|internal|protected|public|static|readonly|volatile)\s+)+[\w<>\[\]?,. ]+?\s+(_\w+)\s*[=;]", RegexOptions.Multiline)]
    private static partial Regex FieldDeclaration();
}
