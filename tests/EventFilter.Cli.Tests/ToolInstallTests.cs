using System.Diagnostics;
using System.Reflection;

namespace EventFilter.Cli.Tests;

/// <summary>
/// `eventfilter` installs as a .NET tool the way docs/operations.md says: pack the built CLI into a folder, install it
/// from there into a tool path, run it. Packs with --no-build (the test run has just built it), so it changes no build
/// output under the other tests' feet.
/// </summary>
public sealed class ToolInstallTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void The_tool_packs_installs_into_a_tool_path_and_answers_version()
    {
        string repository = RepositoryFiles.Root;
        string artifacts = _dir.File("artifacts"), tools = _dir.File("tools");

        Run("dotnet", repository, "pack", Path.Combine("src", "EventFilter.Cli"), "-c", "Release", "--no-build", "-o", artifacts);
        Run("dotnet", repository, "tool", "install", "--tool-path", tools, "--prerelease", "--add-source", artifacts, "EventFilter.Cli");
        string version = Run(Path.Combine(tools, "eventfilter"), repository, "--version").Trim();

        // One version from git (MinVer) everywhere: the package, its symbols, --version and every assembly, which
        // add only "+commit".
        string packageVersion = version.Split('+')[0];
        Assert.Matches(@"^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$", packageVersion);
        Assert.True(File.Exists(Path.Combine(artifacts, $"EventFilter.Cli.{packageVersion}.nupkg")), $"no EventFilter.Cli.{packageVersion}.nupkg in {string.Join(", ", Directory.GetFiles(artifacts).Select(Path.GetFileName))}");
        Assert.True(File.Exists(Path.Combine(artifacts, $"EventFilter.Cli.{packageVersion}.snupkg")), "no symbols package");
        Assert.Equal(version, InformationalVersion(typeof(Cli).Assembly));
        Assert.Equal(version, InformationalVersion(typeof(FilterFile).Assembly));
    }

    private static string InformationalVersion(Assembly assembly) =>
        assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "(none)";

    private static string Run(string program, string directory, params string[] arguments)
    {
        var start = new ProcessStartInfo(program) { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start)!;
        Task<string> error = process.StandardError.ReadToEndAsync();
        string output = process.StandardOutput.ReadToEnd();

        // A hang guard, not a timing assertion: packing and installing take seconds.
        Assert.True(process.WaitForExit(TimeSpan.FromMinutes(5)), $"{program} {string.Join(' ', arguments)} did not finish");
        Assert.True(process.ExitCode == 0, $"{program} {string.Join(' ', arguments)} exited {process.ExitCode}: {output} {error.Result}");
        return output;
    }
}
