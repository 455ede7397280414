using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Every command recovers by itself once descriptors are free again. INFO first used while they were exhausted used to
/// close every later INFO's connection until a restart: its type initializer loaded an assembly, which needs
/// descriptors, and a type initializer that fails fails for good. The daemon now loads what it refers to at start
/// (AssemblyPreload) and its type initializers need nothing from the system.
/// </summary>
public sealed class DescriptorExhaustionTests
{
    private static readonly string[] Commands = ["INFO", "CLIENT", "COMMAND", "BF.INFO", "HELLO", "CONFIG", "SCAN", "BF.SCANDUMP"];

    [Fact]
    public void Commands_first_used_while_descriptors_are_exhausted_work_once_they_are_free()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--max-clients", "16");
        using RespClient client = daemon.Connect();
        Assert.Equal(1L, client.Call("BF.ADD", "k", "a"));

        // Exhausted: the soft limit lowered to what the daemon holds, so that no descriptor is free.
        int open = Directory.GetFileSystemEntries($"/proc/{daemon.Id}/fd").Length;
        SetLimit(daemon.Id, $"--nofile={open}:");
        foreach (object? reply in RunEach(client))
        {
            Assert.NotNull(reply); // an answer, or an error reply: the connection stays open either way
        }

        Assert.Equal("PONG", client.Call("PING"));

        SetLimit(daemon.Id, $"--nofile={open + 1000}:");
        foreach (object? reply in RunEach(client))
        {
            Assert.IsNotType<RespError>(reply);
        }

        using RespClient another = daemon.Connect();
        Assert.Contains("run_id:", Encoding.UTF8.GetString((byte[])another.Call("INFO", "server")!), StringComparison.Ordinal);
        daemon.Terminate();
        Assert.Equal(0, daemon.WaitForExit(Poll.Bound));
        Assert.DoesNotContain("ConnectionFailed", daemon.Output, StringComparison.Ordinal);
    }

    private static IEnumerable<object?> RunEach(RespClient client)
    {
        foreach (string command in Commands)
        {
            yield return command switch
            {
                "INFO" => client.Call("INFO", "all"),
                "CLIENT" => client.Call("CLIENT", "LIST"),
                "COMMAND" => client.Call("COMMAND", "DOCS", "BF.ADD"),
                "BF.INFO" => client.Call("BF.INFO", "k"),
                "HELLO" => client.Call("HELLO", "2"),
                "CONFIG" => client.Call("CONFIG", "GET", "*"),
                "SCAN" => client.Call("SCAN", "0"),
                _ => client.Call("BF.SCANDUMP", "k", "0"),
            };
        }
    }

    private static void SetLimit(int pid, string limit)
    {
        using Process prlimit = Process.Start("prlimit", ["--pid", pid.ToString(CultureInfo.InvariantCulture), limit])!;
        prlimit.WaitForExit();
        Assert.Equal(0, prlimit.ExitCode);
    }
}
