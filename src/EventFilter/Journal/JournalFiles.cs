using System.Globalization;
using EventFilter.Storage;

namespace EventFilter.Journal;

/// <summary>
/// Where a filter's journal generations live: <c>&lt;filter&gt;.journal.&lt;generation&gt;</c>, beside the filter file.
/// </summary>
internal static class JournalFiles
{
    public static string PathFor(string filterPath, ulong generation) =>
        filterPath + ".journal." + generation.ToString(CultureInfo.InvariantCulture);

    /// <summary>The journal files of <paramref name="filterPath"/>, oldest generation first.</summary>
    public static IReadOnlyList<(ulong Generation, string Path)> List(string filterPath)
    {
        string full = Path.GetFullPath(filterPath);
        string directory = Path.GetDirectoryName(full)!;
        string prefix = Path.GetFileName(full) + ".journal.";
        if (!Directory.Exists(directory))
        {
            return [];
        }

        var found = new List<(ulong, string)>();
        foreach (string path in Directory.EnumerateFiles(directory, prefix + "*"))
        {
            string suffix = Path.GetFileName(path)[prefix.Length..];
            if (suffix.Length > 0 && suffix.All(char.IsAsciiDigit) && ulong.TryParse(suffix, NumberStyles.None, CultureInfo.InvariantCulture, out ulong generation))
            {
                found.Add((generation, path));
            }
        }

        found.Sort((a, b) => a.Item1.CompareTo(b.Item1));
        return found;
    }

    /// <summary>The generation a new journal of <paramref name="filterPath"/> should take: above every file present.</summary>
    public static ulong NextGeneration(string filterPath)
    {
        IReadOnlyList<(ulong Generation, string Path)> files = List(filterPath);
        return files.Count == 0 ? 1 : files[^1].Generation + 1;
    }

    /// <summary>Deletes the given generations (or all of them) durably.</summary>
    public static void Delete(string filterPath, ulong upToGeneration = ulong.MaxValue)
    {
        bool deleted = false;
        foreach ((ulong generation, string path) in List(filterPath))
        {
            if (generation <= upToGeneration)
            {
                File.Delete(path);
                deleted = true;
            }
        }

        if (deleted)
        {
            DurableDirectory.Sync(Path.GetDirectoryName(Path.GetFullPath(filterPath))!);
        }
    }
}
