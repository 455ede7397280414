namespace EventFilter.Testing;

/// <summary>One daemon shared by a test class whose tests use keys of their own; started once, killed at the end. Used by the daemon's and the CLI's tests.</summary>
public sealed class DaemonFixture : IDisposable
{
    private readonly TempDirectory _directory = new();

    public DaemonFixture() => Daemon = DaemonProcess.Start(_directory.Path, "--log-sync", "always");

    public DaemonProcess Daemon { get; }

    public void Dispose()
    {
        Daemon.Dispose();
        _directory.Dispose();
    }
}
