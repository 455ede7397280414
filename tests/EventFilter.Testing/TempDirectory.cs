namespace EventFilter.Testing;

/// <summary>A fresh directory per test or fixture (<see cref="Directory.CreateTempSubdirectory"/>), deleted afterwards.</summary>
public sealed class TempDirectory : IDisposable
{
    public TempDirectory() => Path = Directory.CreateTempSubdirectory("eventfilter-tests-").FullName;

    public string Path { get; }

    /// <summary>A path inside the directory.</summary>
    public string File(string name) => System.IO.Path.Combine(Path, name);

    /// <summary>Every file and directory under <see cref="Path"/>, to show that a failed start left nothing behind.</summary>
    public string[] Entries() => Directory.GetFileSystemEntries(Path, "*", SearchOption.AllDirectories).Order(StringComparer.Ordinal).ToArray();

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // A test that failed may still hold a file open; a leftover temporary directory is harmless.
        }
    }
}
