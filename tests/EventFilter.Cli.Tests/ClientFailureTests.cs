namespace EventFilter.Cli.Tests;

/// <summary>
/// Client mode's failures: one line on stderr, no stack trace, and a distinct exit code: 2 for bad arguments (checked
/// before connecting, so nothing changes), 3 when the daemon cannot be reached or does not speak RESP, 4 when it refuses.
/// </summary>
public sealed class ClientFailureTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    private string Socket => fixture.Daemon.SocketPath;

    [Fact]
    public void A_missing_socket_exits_3()
    {
        using var directory = new TempDirectory();

        CliRun.Of("-s", directory.File("eventfilterd.sock"), "ping").AssertOneLineFailure("no socket at", exitCode: 3);
    }

    [Fact]
    public void The_socket_a_killed_daemon_left_behind_exits_3()
    {
        using var directory = new TempDirectory();
        using DaemonProcess killed = DaemonProcess.Start(directory.Path);
        killed.Kill();
        Assert.True(File.Exists(killed.SocketPath), "SIGKILL leaves the socket file behind");

        CliRun.Of("-s", killed.SocketPath, "ping").AssertOneLineFailure("nothing is listening", exitCode: 3);
    }

    [Fact]
    public void A_daemon_that_never_answers_times_out_with_exit_3()
    {
        using var directory = new TempDirectory();
        using var silent = FakeServer.Start(directory.File("silent.sock"), reply: null);

        CliRun run = CliRun.Of("-s", silent.Path, "--timeout", "0.5", "ping");

        run.AssertOneLineFailure("did not answer within 0.5 s", exitCode: 3);
    }

    [Fact]
    public void A_peer_that_does_not_speak_resp_exits_3()
    {
        using var directory = new TempDirectory();
        using var http = FakeServer.Start(directory.File("http.sock"), reply: "HTTP/1.1 400 Bad Request\r\n\r\n"u8.ToArray());

        CliRun.Of("-s", http.Path, "ping").AssertOneLineFailure("not RESP", exitCode: 3);
    }

    [Fact]
    public void An_error_reply_exits_4_and_changes_nothing()
    {
        Assert.Equal(0, Client("create", "exists", "--capacity", "10").ExitCode);

        Client("create", "exists", "--capacity", "999").AssertOneLineFailure("ERR item exists", exitCode: 4);

        Assert.Equal(10, Client("info", "exists", "--json").Json().GetProperty("capacity").GetInt64());
    }

    [Theory]
    [InlineData("create", "bad", "--capacity", "0")]
    [InlineData("create", "bad", "--error-rate", "2")]
    [InlineData("create", "bad", "--error-rate", "0")]
    [InlineData("create", "bad", "--expansion", "0")]
    [InlineData("create", "bad", "--nonscaling", "--expansion", "3")]
    [InlineData("create")]
    [InlineData("add", "bad")]
    [InlineData("madd", "bad")]
    [InlineData("check", "bad", "a", "b")]
    [InlineData("frobnicate", "bad")]
    [InlineData("inspect", "bad")]
    [InlineData("--timeout", "0", "add", "bad", "x")]
    [InlineData("--timeout", "soon", "add", "bad", "x")]
    public void Bad_arguments_exit_2_before_anything_is_sent(params string[] args)
    {
        CliRun run = Client(args);

        Assert.Equal(2, run.ExitCode);
        Assert.Equal(string.Empty, run.Stdout);
        Assert.Contains("usage error", run.Stderr, StringComparison.Ordinal);
        Assert.Contains("eventfilter -s SOCKET", run.Stderr, StringComparison.Ordinal);
        Assert.Equal(0, Client("list", "bad*", "--json").Json().GetProperty("count").GetInt32());
    }

    [Fact]
    public void A_socket_option_without_a_path_is_a_usage_error()
    {
        CliRun run = CliRun.Of("ping", "-s");

        Assert.Equal(2, run.ExitCode);
        Assert.Contains("usage error", run.Stderr, StringComparison.Ordinal);
    }

    [Fact]
    public void The_real_process_exits_3_in_one_line_when_no_daemon_listens()
    {
        using var directory = new TempDirectory();

        CliRun.OfProcess("-s", directory.File("none.sock"), "ping").AssertOneLineFailure("no socket at", exitCode: 3);
        CliRun.OfProcess("-s", directory.File("none.sock"), "ping", "--json").AssertJsonFailure("no socket at", exitCode: 3);
    }

    private CliRun Client(params string[] args) => CliRun.Of(["-s", Socket, .. args]);
}
