using System.Diagnostics;

using Xunit;

namespace EventFilter.Testing;

/// <summary>A tiny tmpfs, for a real full or read-only disk. Needs root and mount permission, which CI machines have.</summary>
public sealed class SmallTmpfs : IDisposable
{
    private SmallTmpfs(string path) => Path = path;

    public string Path { get; }

    public static SmallTmpfs Mount(string path, int kilobytes)
    {
        Directory.CreateDirectory(path);
        Run("mount", "-t", "tmpfs", "-o", $"size={kilobytes}k", "tmpfs", path);
        return new SmallTmpfs(path);
    }

    /// <summary>Only works while no file on it is open for writing.</summary>
    public void RemountReadOnly() => Run("mount", "-o", "remount,ro", Path);

    public void Dispose() => Run("umount", "-l", Path);

    private static void Run(string command, params string[] args)
    {
        var start = new ProcessStartInfo(command) { RedirectStandardError = true, UseShellExecute = false };
        args.ToList().ForEach(start.ArgumentList.Add);
        using var process = Process.Start(start)!;
        string error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        Assert.True(process.ExitCode == 0, $"{command} {string.Join(' ', args)} failed: {error}");
    }
}
