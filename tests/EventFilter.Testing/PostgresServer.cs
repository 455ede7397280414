using System.Diagnostics;
using System.Text;
using Npgsql;
using Xunit;

namespace EventFilter.Testing;

/// <summary>
/// A real PostgreSQL for the tests, from Debian's server binaries: a cluster initialised in a temporary directory, run
/// as the postgres user (the tests run as root in CI, and postgres refuses root), listening only on a Unix socket in
/// that directory. Stopped (immediate) and deleted at the end. Each test takes a database of its own, with the
/// sample's events table (samples/PostgresEventStore/schema.sql). A test project shares one through a collection.
/// </summary>
public sealed class PostgresServer : IAsyncLifetime
{
    private readonly StringBuilder _log = new();
    private string _directory = "";
    private string _bin = "";
    private Process? _server;
    private int _databases;

    public string SocketDirectory => _directory;

    public string ConnectionString(string database) => $"Host={_directory};Username=postgres;Database={database}";

    /// <summary>The sample's events table, as a user creates it.</summary>
    public static string EventsTable { get; } = File.ReadAllText(Path.Combine(RepositoryFiles.Root, "samples", "PostgresEventStore", "schema.sql"));

    /// <summary>A new database with the events table; <paramref name="withTable"/> false leaves it empty.</summary>
    public async Task<NpgsqlDataSource> CreateDatabaseAsync(bool withTable = true)
    {
        string name = $"test_{Interlocked.Increment(ref _databases)}";
        await using (var admin = new NpgsqlConnection(ConnectionString("postgres")))
        {
            await admin.OpenAsync();
            await using var create = new NpgsqlCommand($"create database {name}", admin);
            await create.ExecuteNonQueryAsync();
        }

        NpgsqlDataSource database = NpgsqlDataSource.Create(ConnectionString(name));
        if (withTable)
        {
            await using NpgsqlCommand create = database.CreateCommand(EventsTable);
            await create.ExecuteNonQueryAsync();
        }

        return database;
    }

    public async Task InitializeAsync()
    {
        _bin = Directory.Exists("/usr/lib/postgresql")
            ? Directory.GetDirectories("/usr/lib/postgresql").Select(v => Path.Combine(v, "bin")).Where(b => File.Exists(Path.Combine(b, "initdb"))).Order().LastOrDefault() ?? ""
            : "";
        if (_bin.Length == 0)
        {
            throw new InvalidOperationException("PostgreSQL's server binaries are missing (no /usr/lib/postgresql/*/bin/initdb): run .ci/test-tools, or apt-get install postgresql");
        }

        // Under /tmp whatever TMPDIR says: the postgres user must reach it, and a socket's path must stay short.
        _directory = Directory.CreateDirectory($"/tmp/eventfilter-postgres-{Guid.NewGuid():N}").FullName;
        if (RootFactAttribute.IsRoot)
        {
            Run("chown", "postgres:", _directory);
        }

        Run(Path.Combine(_bin, "initdb"), "-D", Data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync");

        // No TCP at all (listen_addresses empty): the socket in the directory is the only way in. fsync off: the tests
        // are about visibility and commit order, which it does not change, and the machine is shared. Autovacuum off:
        // its analyze takes a transaction id, and any transaction older than a reading of the safe end holds the end
        // back until a later reading, while the tests move the end only by the store's own commits.
        _server = Start(Path.Combine(_bin, "postgres"), "-D", Data, "-k", _directory, "-c", "listen_addresses=", "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "autovacuum=off");
        await WaitUntilAcceptingAsync();
    }

    public Task DisposeAsync()
    {
        if (_server is { } server)
        {
            try
            {
                Run(Path.Combine(_bin, "pg_ctl"), "stop", "-D", Data, "-m", "immediate");
            }
            finally
            {
                if (!server.WaitForExit(TimeSpan.FromSeconds(30)))
                {
                    server.Kill(entireProcessTree: true);
                }

                server.Dispose();
            }
        }

        if (_directory.Length > 0)
        {
            Directory.Delete(_directory, recursive: true);
        }

        return Task.CompletedTask;
    }

    private string Data => Path.Combine(_directory, "data");

    // Polls a connection: the server is ready when it accepts one. The bound only turns a hang into a failure.
    private async Task WaitUntilAcceptingAsync()
    {
        string lastError = "";
        await Poll.UntilAsync(
            async () =>
            {
                try
                {
                    await using var connection = new NpgsqlConnection(ConnectionString("postgres") + ";Pooling=false");
                    await connection.OpenAsync();
                    return true;
                }
                catch (Exception error) when (error is NpgsqlException or System.Net.Sockets.SocketException)
                {
                    lastError = error.Message;
                    Assert.False(_server!.HasExited, $"PostgreSQL exited in {_directory}: {lastError}\n{Log()}");
                    return false;
                }
            },
            () => $"PostgreSQL to start in {_directory}: {lastError}\n{Log()}");
    }

    private string Log()
    {
        lock (_log)
        {
            return _log.ToString();
        }
    }

    private void Run(string file, params string[] arguments)
    {
        using Process process = Start(file, arguments);
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException($"{Path.GetFileName(file)} {string.Join(' ', arguments)} exited with {process.ExitCode}:\n{Log()}");
        }
    }

    // As the postgres user when we are root (runuser), as ourselves otherwise; output goes to the log shown on failure.
    private Process Start(string file, params string[] arguments)
    {
        bool asPostgres = RootFactAttribute.IsRoot && file != "chown";
        var start = new ProcessStartInfo(asPostgres ? "runuser" : file) { WorkingDirectory = "/", RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in asPostgres ? ["-u", "postgres", "--", file, .. arguments] : arguments)
        {
            start.ArgumentList.Add(argument);
        }

        var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, line) => Append(line.Data);
        process.ErrorDataReceived += (_, line) => Append(line.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return process;
    }

    private void Append(string? line)
    {
        lock (_log)
        {
            _log.AppendLine(line);
        }
    }
}
