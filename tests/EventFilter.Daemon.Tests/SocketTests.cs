namespace EventFilter.Daemon.Tests;

/// <summary>The socket file's mode, a stale file from a killed daemon, and one daemon per data directory.</summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class SocketTests
{
    [Fact]
    public void Socket_file_gets_the_configured_mode()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--socket-mode", "0600"))
        {
            Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(daemon.SocketPath));
        }

        string other = Path.Combine(directory.Path, "default.sock");
        using DaemonProcess defaults = DaemonProcess.StartAt(directory.Path, other);
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.GroupRead | UnixFileMode.GroupWrite, File.GetUnixFileMode(other));
    }

    [Fact]
    public void Stale_socket_from_a_killed_daemon_is_replaced_at_start()
    {
        using var directory = new TempDirectory();
        DaemonProcess first = DaemonProcess.Start(directory.Path);
        first.Kill();
        first.Dispose();
        Assert.True(File.Exists(Path.Combine(directory.Path, "eventfilterd.sock")), "SIGKILL leaves the socket file behind");

        using DaemonProcess second = DaemonProcess.Start(directory.Path);
        using RespClient client = second.Connect();
        Assert.Equal("PONG", client.Call("PING"));
    }

    [Fact]
    public void Clean_stop_removes_the_socket_file()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path);
        Assert.Equal(0, daemon.Stop());
        Assert.False(File.Exists(daemon.SocketPath));
    }

    [Fact]
    public void Second_daemon_on_the_same_data_directory_fails_with_a_clear_error()
    {
        using var directory = new TempDirectory();
        using DaemonProcess first = DaemonProcess.Start(directory.Path);
        (int exitCode, string output) = DaemonProcess.RunToExit(directory.Path, Path.Combine(directory.Path, "second.sock"));
        Assert.Equal(3, exitCode);
        Assert.Contains("is in use by another eventfilterd", output, StringComparison.Ordinal);
        Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        using RespClient client = first.Connect();
        Assert.Equal("PONG", client.Call("PING"));
    }

    [Fact]
    public void A_socket_another_server_listens_on_is_refused_not_stolen()
    {
        using var directory = new TempDirectory();
        using var other = new TempDirectory();
        using DaemonProcess first = DaemonProcess.Start(directory.Path);
        (int exitCode, string output) = DaemonProcess.RunToExit(other.Path, first.SocketPath);
        Assert.Equal(4, exitCode);
        Assert.Contains("another server is listening on the socket", output, StringComparison.Ordinal);
        using RespClient client = first.Connect();
        Assert.Equal("PONG", client.Call("PING"));
    }

    /// <summary>Before, the host logged "Hosting failed to start" with the exception's stack trace before the line.</summary>
    [Fact]
    public void A_port_in_use_fails_with_one_line_and_exit_4_no_stack_trace()
    {
        using var directory = new TempDirectory();
        using var taken = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        taken.Start();
        int port = ((System.Net.IPEndPoint)taken.LocalEndpoint).Port;
        string socket = Path.Combine(directory.Path, "s.sock");
        (int exitCode, string output) = DaemonProcess.RunToExit(directory.Path, socket, "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.True(exitCode == 4, $"exit {exitCode}:\n{output}");
        Assert.Contains($"eventfilterd: cannot listen on 127.0.0.1:{port}: Address already in use", output, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", output, StringComparison.Ordinal);
        Assert.DoesNotContain("Hosting failed to start", output, StringComparison.Ordinal);
        Assert.False(File.Exists(socket), "the socket file it bound first is removed");
    }

    [Fact]
    public void Bad_option_fails_with_a_message_naming_it()
    {
        using var directory = new TempDirectory();
        (int exitCode, string output) = DaemonProcess.RunToExit(directory.Path, Path.Combine(directory.Path, "s.sock"), "--log-sync", "sometimes");
        Assert.Equal(2, exitCode);
        Assert.Contains("--log-sync must be 'always' or 'periodic'", output, StringComparison.Ordinal);
    }
}
