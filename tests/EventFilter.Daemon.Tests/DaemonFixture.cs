namespace EventFilter.Daemon.Tests;

/// <summary>One daemon shared by a test class whose tests use keys of their own; started once, killed at the end.</summary>
public sealed class DaemonFixture : IDisposable
{
    private readonly TempDirectory _directory = new();

    public DaemonFixture() => Daemon = DaemonProcess.Start(_directory.Path, "--log-sync", "always");

    public DaemonProcess Daemon { get; }

    public RespClient Connect() => Daemon.Connect();

    public void Dispose()
    {
        Daemon.Dispose();
        _directory.Dispose();
    }
}
