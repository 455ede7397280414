using System.Net;
using System.Net.Sockets;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The password's set-up and what it guards: no password means Redis's passwordless default user; a non-loopback
/// --bind needs one; the password file's faults are one line; and no log line ever holds the password.
/// </summary>
public sealed class AuthSetupTests
{
    [Fact]
    public void Without_a_password_auth_answers_as_redis_with_no_password_set()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path);
        using RespClient client = daemon.Connect();
        var error = Assert.IsType<RespError>(client.Call("AUTH", "anything"));
        Assert.Equal("ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?", error.Message);
        Assert.Equal("OK", client.Call("AUTH", "default", "anything"));
        Assert.Equal("PONG", client.Call("PING"));
    }

    [Fact]
    public void Tcp_on_a_non_loopback_address_needs_a_password()
    {
        using var directory = new TempDirectory();
        (int code, string output) = DaemonProcess.RunToExit(directory.Path, Path.Combine(directory.Path, "s.sock"), "--port", "6390", "--bind", "0.0.0.0");
        Assert.Equal(2, code);
        Assert.Equal("eventfilterd: --bind 0.0.0.0 is not a loopback address: listening there needs a password (--requirepass-file).", output.Trim());
    }

    [Fact]
    public void Tcp_with_a_password_refuses_commands_until_auth()
    {
        using var directory = new TempDirectory();
        string passwordFile = Path.Combine(directory.Path, "password");
        File.WriteAllText(passwordFile, "tcp-secret\r\n");
        int port = FreePort();
        using DaemonProcess daemon = DaemonProcess.Start(Path.Combine(directory.Path, "data"), "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture), "--bind", "0.0.0.0", "--requirepass-file", passwordFile);
        using RespClient client = RespClient.ConnectTcp(new IPEndPoint(IPAddress.Loopback, port));
        Assert.Equal("NOAUTH Authentication required.", Assert.IsType<RespError>(client.Call("BF.ADD", "k", "v")).Message);
        Assert.Equal("OK", client.Call("AUTH", "tcp-secret"));
        Assert.Equal(1L, client.Call("BF.ADD", "k", "v"));
    }

    [Fact]
    public void An_ipv4_mapped_loopback_bind_listens_on_its_ipv4_address()
    {
        // Pins a start that passed the loopback check, then failed to bind with a stack trace.
        using var directory = new TempDirectory();
        int port = FreePort();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture), "--bind", "::ffff:127.0.0.1");
        using RespClient client = RespClient.ConnectTcp(new IPEndPoint(IPAddress.Loopback, port));
        Assert.Equal("PONG", client.Call("PING"));
        Assert.DoesNotContain("   at ", daemon.Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("", "is empty")]
    [InlineData("two\nlines\n", "holds more than one line")]
    public void A_bad_password_file_stops_the_start_with_one_line(string content, string problem)
    {
        using var directory = new TempDirectory();
        string passwordFile = Path.Combine(directory.Path, "password");
        File.WriteAllText(passwordFile, content);
        (int code, string output) = DaemonProcess.RunToExit(directory.Path, Path.Combine(directory.Path, "s.sock"), "--requirepass-file", passwordFile);
        Assert.Equal(2, code);
        Assert.Equal($"eventfilterd: the password file '{passwordFile}' {problem}", output.Trim());
    }

    [Fact]
    public void A_missing_password_file_stops_the_start_with_one_line()
    {
        using var directory = new TempDirectory();
        string passwordFile = Path.Combine(directory.Path, "nope");
        (int code, string output) = DaemonProcess.RunToExit(directory.Path, Path.Combine(directory.Path, "s.sock"), "--requirepass-file", passwordFile);
        Assert.Equal(2, code);
        Assert.StartsWith($"eventfilterd: cannot read the password file '{passwordFile}':", output.Trim(), StringComparison.Ordinal);
        Assert.DoesNotContain('\n', output.Trim());
    }

    [Fact]
    public void The_password_never_reaches_the_log()
    {
        using var fixture = new PasswordDaemonFixture();
        string password = PasswordDaemonFixture.Password;
        using (RespClient client = fixture.Daemon.Connect())
        {
            client.Call("PING");
            client.Call("AUTH", password + "-wrong");
            client.Call("AUTH", "default", password.ToUpperInvariant());
            client.Call("AUTH", "someone", password);
            client.Call("HELLO", "3", "AUTH", "default", "x" + password);
            client.Call("AUTH", password);
            client.Call("AUTH", password);
            client.Call("AUTH", "wrong-after-success");
            client.Call(password, password);
            client.Call("BF.ADD", "log-check", password);
        }

        // Half a frame, then gone: the connection's end is logged at Trace/Debug if at all, never with its bytes.
        using (RespClient torn = fixture.Daemon.Connect())
        {
            torn.SendRaw(System.Text.Encoding.ASCII.GetBytes($"*2\r\n$4\r\nAUTH\r\n${password.Length}\r\n{password[..5]}"));
        }

        Assert.Equal(0, fixture.Daemon.Stop());
        string log = fixture.Daemon.Output;
        Assert.Contains("[101 Listening]", log, StringComparison.Ordinal);
        Assert.Contains("auth password", log, StringComparison.Ordinal);
        Assert.DoesNotContain(password, log, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain(password[..8], log, StringComparison.OrdinalIgnoreCase);
    }

    private static int FreePort()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }
}
