namespace EventFilter.Daemon.Tests;

/// <summary>A fresh directory per test, deleted afterwards. Short, under /tmp: a Unix socket path must fit in 108 bytes.</summary>
public sealed class TempDirectory : IDisposable
{
    public TempDirectory()
    {
        Path = System.IO.Path.Combine("/tmp", "efd-" + Guid.NewGuid().ToString("N")[..12]);
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    public void Dispose()
    {
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // A daemon that failed may still hold a file open; leaving a temp directory behind is harmless.
        }
    }
}
