namespace EventFilter.Hosting.Tests;

/// <summary>A fresh directory per test, deleted afterwards. <see cref="Data"/> is not created: the filter creates it.</summary>
public sealed class TempDirectory : IDisposable
{
    public TempDirectory()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "eventfilter-hosting-tests", Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    public string Data => System.IO.Path.Combine(Path, "data");

    public string FilterPath => System.IO.Path.Combine(Data, StreamExistenceFilterOptions.DefaultFileName);

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
            // A test that failed may still hold a file open; leaving a temp directory behind is harmless.
        }
    }
}
