namespace EventFilter.Daemon.Tests;

/// <summary>
/// A daemon started with --requirepass-file, shared by a test class; its configuration file turns logging up to Trace,
/// so that a password that reached any log line would show in <see cref="DaemonProcess.Output"/>.
/// </summary>
public sealed class PasswordDaemonFixture : IDisposable
{
    /// <summary>Long and unusual, so that finding it in the log can only mean it leaked.</summary>
    public const string Password = "Xq7-pass-9dLw-only-in-the-file";

    private readonly TempDirectory _directory = new();

    public PasswordDaemonFixture()
    {
        PasswordFile = Path.Combine(_directory.Path, "password");
        File.WriteAllText(PasswordFile, Password + "\n");
        string config = Path.Combine(_directory.Path, "eventfilterd.json");
        File.WriteAllText(config, """{ "Logging": { "LogLevel": { "Default": "Trace" } } }""");
        Daemon = DaemonProcess.Start(Path.Combine(_directory.Path, "data"), "--requirepass-file", PasswordFile, "--config", config, "--log-sync", "always");
    }

    public string PasswordFile { get; }

    public DaemonProcess Daemon { get; }

    public void Dispose()
    {
        Daemon.Dispose();
        _directory.Dispose();
    }
}
