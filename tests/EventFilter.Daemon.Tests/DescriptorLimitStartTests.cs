using System.Diagnostics;
using System.Security.Cryptography;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// A start under a descriptor limit its filters do not fit (docs/daemon.md, "Starting"): refused before it changes
/// anything, saying what it needs, the data directory compared file by file; two such starts and then one with enough
/// descriptors lose nothing acknowledged, in either sync mode.
/// </summary>
public sealed class DescriptorLimitStartTests
{
    private const string NoTick = "3600000";
    private const int Filters = 150;
    private const int LowLimit = 400;

    [Theory]
    [InlineData("periodic")]
    [InlineData("always")]
    public void Two_starts_refused_for_descriptors_change_nothing_and_a_third_loses_nothing(string sync)
    {
        using var directory = new TempDirectory();
        string[] arguments = ["--sync-interval-ms", NoTick, "--log-sync", sync];
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, arguments))
        {
            using RespClient client = daemon.Connect();
            for (int i = 0; i < Filters; i++)
            {
                Assert.Equal(1L, client.Call("BF.ADD", $"made{i}", $"item{i}"));
            }

            Assert.Equal(0, daemon.Stop()); // every one of them with its files
        }

        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, arguments))
        {
            using RespClient client = daemon.Connect();
            for (int i = 0; i < Filters; i++)
            {
                Assert.Equal(1L, client.Call("BF.ADD", $"held{i}", $"item{i}")); // periodic: in the control log only
            }

            Assert.Equal(1L, client.Call("DEL", "made0"));
            daemon.Kill();
        }

        Dictionary<string, string> before = Snapshot(directory.Path);
        for (int attempt = 0; attempt < 2; attempt++)
        {
            (int exit, string output) = StartUnderLimit(directory.Path, LowLimit, arguments);
            Assert.True(exit == 5, $"exit {exit}:\n{output}");
            Assert.Contains("RLIMIT_NOFILE", output, StringComparison.Ordinal);
            // Every filter it would open: those with directories and those the control log brings back with items.
            Assert.Contains($"the {(2 * Filters) - 1} filters need", output, StringComparison.Ordinal);
            Assert.Contains("Nothing was changed", output, StringComparison.Ordinal);
            Assert.Equal(before, Snapshot(directory.Path));
        }

        using DaemonProcess restarted = DaemonProcess.Start(directory.Path, arguments);
        using RespClient reader = restarted.Connect();
        Assert.Equal(0L, reader.Call("EXISTS", "made0"));
        for (int i = 1; i < Filters; i++)
        {
            Assert.Equal(1L, reader.Call("BF.EXISTS", $"made{i}", $"item{i}"));
        }

        for (int i = 0; i < Filters; i++)
        {
            Assert.Equal(1L, reader.Call("BF.EXISTS", $"held{i}", $"item{i}"));
        }
    }

    /// <summary>The daemon under `prlimit --nofile`, run until it exits.</summary>
    private static (int ExitCode, string Output) StartUnderLimit(string dataDirectory, int limit, string[] arguments)
    {
        var start = new ProcessStartInfo("prlimit") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in (string[])[$"--nofile={limit}:{limit}", Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet",
            Path.Combine(AppContext.BaseDirectory, "eventfilterd.dll"), "--data", dataDirectory, "--socket", Path.Combine(dataDirectory, "eventfilterd.sock"), .. arguments])
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start)!;
        Task<string> error = process.StandardError.ReadToEndAsync();
        string output = process.StandardOutput.ReadToEnd();
        Assert.True(process.WaitForExit(TimeSpan.FromSeconds(60)), "the start under the limit did not exit");
        return (process.ExitCode, output + error.Result);
    }

    /// <summary>Every file and directory under <paramref name="root"/> but the socket: its SHA-256 (or "dir"), by relative path.</summary>
    internal static Dictionary<string, string> Snapshot(string root) =>
        Directory.EnumerateFileSystemEntries(root, "*", SearchOption.AllDirectories)
            .Where(path => !path.EndsWith(".sock", StringComparison.Ordinal))
            .ToDictionary(
                path => Path.GetRelativePath(root, path),
                path => Directory.Exists(path) ? "dir" : Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(path))));
}
