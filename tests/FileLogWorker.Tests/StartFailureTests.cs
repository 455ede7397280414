using System.Diagnostics;
using EventFilter;

namespace FileLogWorker.Tests;

/// <summary>
/// The guide's worker, run as a process with its own appsettings.json, on a data directory another process holds: it
/// exits with the documented code (docs/operations.md, "Start-up failures") and one line, and no stack trace anywhere.
/// </summary>
public sealed class StartFailureTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("filelogworker-tests-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task On_a_data_directory_another_process_holds_the_worker_exits_3_with_one_line()
    {
        string filter = Path.Combine(_directory, "filter");
        using var log = new FileStreamLog(Path.Combine(_directory, "holder.log"));
        using var holder = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = filter, SizeBytes = 1 << 20 }, log);
        holder.Open();

        (int exitCode, string stdout, string stderr) = await RunWorkerAsync(
            "--Log", Path.Combine(_directory, "streams.log"), "--StreamExistenceFilter:DataDirectory", filter);

        // Regression: the host's stack trace, logged twice and printed once more, then exit code 134 (SIGABRT).
        Assert.Equal(3, exitCode);
        string line = Assert.Single(stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"The stream-existence filter's data directory '{filter}' is in use: ", line, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", stdout, StringComparison.Ordinal);
        Assert.Contains("could not be opened, so the host stops: " + line, stdout, StringComparison.Ordinal);
    }

    /// <summary>Runs FileLogWorker.dll (built beside the tests) from its own directory, as `dotnet run` would, until it exits.</summary>
    private static async Task<(int ExitCode, string Stdout, string Stderr)> RunWorkerAsync(params string[] arguments)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = AppContext.BaseDirectory, // its appsettings.json, with the logging levels the guide shows
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in (string[])[Path.Combine(AppContext.BaseDirectory, "FileLogWorker.dll"), "--Urls", "http://127.0.0.1:0", .. arguments])
        {
            start.ArgumentList.Add(argument);
        }

        using Process worker = Process.Start(start)!;
        Task<string> stdout = worker.StandardOutput.ReadToEndAsync();
        Task<string> stderr = worker.StandardError.ReadToEndAsync();
        using var hang = new CancellationTokenSource(TimeSpan.FromMinutes(2)); // only turns a hang into a failure
        try
        {
            await worker.WaitForExitAsync(hang.Token);
        }
        catch (OperationCanceledException)
        {
            worker.Kill();
            Assert.Fail($"the worker did not exit:\n{await stdout}\n{await stderr}");
        }

        return (worker.ExitCode, await stdout, await stderr);
    }
}
