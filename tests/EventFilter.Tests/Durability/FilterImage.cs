using EventFilter.Journal;

namespace EventFilter.Tests.Durability;

/// <summary>
/// Every file that holds a filter's durable state (the filter, its checkpoint, its journal generations), captured as
/// bytes: what a crash at this moment would leave. <see cref="RestoreTo"/> puts exactly these files back.
/// </summary>
public sealed class FilterImage
{
    private readonly Dictionary<string, byte[]> _files = [];

    public static FilterImage Capture(string filterPath)
    {
        var image = new FilterImage();
        foreach (string path in Paths(filterPath))
        {
            image._files[Path.GetFileName(path)] = File.ReadAllBytes(path);
        }

        return image;
    }

    public byte[] this[string fileName] => _files[fileName];

    public IEnumerable<string> FileNames => _files.Keys;

    public void Set(string fileName, byte[] bytes) => _files[fileName] = bytes;

    /// <summary>Replaces the filter's files at <paramref name="filterPath"/> with this image's (removing any it lacks).</summary>
    public void RestoreTo(string filterPath)
    {
        foreach (string path in Paths(filterPath))
        {
            File.Delete(path);
        }

        string directory = Path.GetDirectoryName(Path.GetFullPath(filterPath))!;
        foreach ((string name, byte[] bytes) in _files)
        {
            File.WriteAllBytes(Path.Combine(directory, name), bytes);
        }
    }

    /// <summary>The files of the filter at <paramref name="filterPath"/> that exist now.</summary>
    public static IEnumerable<string> Paths(string filterPath)
    {
        if (File.Exists(filterPath))
        {
            yield return filterPath;
        }

        string checkpoint = CheckpointFile.PathFor(filterPath);
        if (File.Exists(checkpoint))
        {
            yield return checkpoint;
        }

        foreach ((ulong _, string path) in JournalFiles.List(filterPath))
        {
            yield return path;
        }
    }

    /// <summary>Copies the filter's files to <paramref name="destinationFilterPath"/>, renaming them to match it.</summary>
    public static void CopyTo(string filterPath, string destinationFilterPath)
    {
        string sourceName = Path.GetFileName(filterPath);
        string destinationDirectory = Path.GetDirectoryName(Path.GetFullPath(destinationFilterPath))!;
        string destinationName = Path.GetFileName(destinationFilterPath);
        foreach (string path in Paths(destinationFilterPath).ToList())
        {
            File.Delete(path);
        }

        foreach (string path in Paths(filterPath))
        {
            string name = destinationName + Path.GetFileName(path)[sourceName.Length..];
            File.Copy(path, Path.Combine(destinationDirectory, name), overwrite: true);
        }
    }
}
