namespace EventFilter.Cli.Tests;

/// <summary>`eventfilter -s SOCKET --password-file FILE ...` against a daemon started with --requirepass-file.</summary>
public sealed class ClientPasswordTests : IDisposable
{
    private const string Password = "correct horse battery staple";
    private readonly TempDirectory _dir = new();
    private readonly DaemonProcess _daemon;

    public ClientPasswordTests()
    {
        File.WriteAllText(_dir.File("daemon.pass"), Password + "\n");
        _daemon = DaemonProcess.Start(_dir.File("data"), "--requirepass-file", _dir.File("daemon.pass"));
    }

    public void Dispose()
    {
        _daemon.Dispose();
        _dir.Dispose();
    }

    [Fact]
    public void With_the_password_file_every_command_runs()
    {
        File.WriteAllText(_dir.File("client.pass"), Password + "\r\n");

        CliRun created = Client("--password-file", _dir.File("client.pass"), "create", "orders");
        CliRun added = Client("add", "orders", "order-42", "--password-file", _dir.File("client.pass"));

        Assert.Equal(0, created.ExitCode);
        Assert.Equal(0, added.ExitCode);
        Assert.Equal("added           order-42", added.Stdout.TrimEnd());
    }

    [Fact]
    public void Without_it_the_daemon_refuses_and_says_why()
    {
        Client("ping").AssertOneLineFailure("NOAUTH", exitCode: 4);
    }

    [Fact]
    public void A_wrong_password_is_refused_without_being_repeated()
    {
        const string wrong = "tr0ub4dor&3";
        File.WriteAllText(_dir.File("wrong.pass"), wrong);

        CliRun refused = Client("--password-file", _dir.File("wrong.pass"), "ping");

        refused.AssertOneLineFailure("refused the password in", exitCode: 4);
        Assert.DoesNotContain(wrong, refused.Stderr, StringComparison.Ordinal);
    }

    [Fact]
    public void A_missing_or_empty_password_file_is_a_usage_failure_that_sends_nothing()
    {
        File.WriteAllText(_dir.File("empty.pass"), "\n");

        Client("--password-file", _dir.File("nowhere.pass"), "ping").AssertOneLineFailure("cannot read the password file");
        Client("--password-file", _dir.File("empty.pass"), "ping").AssertOneLineFailure("must hold one non-empty line");
    }

    private CliRun Client(params string[] args) => CliRun.Of(["-s", _daemon.SocketPath, .. args]);
}
