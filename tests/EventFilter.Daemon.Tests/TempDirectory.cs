namespace EventFilter.Daemon.Tests;

/// <summary>A fresh directory per test (/tmp/efd-XXXXXX: a Unix socket path must fit in 108 bytes), deleted afterwards.</summary>
public sealed class TempDirectory : IDisposable
{
    private readonly DirectoryInfo _directory = Directory.CreateTempSubdirectory("efd-");

    public string Path => _directory.FullName;

    public void Dispose()
    {
        try
        {
            _directory.Delete(recursive: true);
        }
        catch (IOException)
        {
            // A daemon that failed may still hold a file open; leaving a temp directory behind is harmless.
        }
    }
}
