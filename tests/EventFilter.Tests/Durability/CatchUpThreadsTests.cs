using System.Diagnostics;

namespace EventFilter.Tests.Durability;

/// <summary>
/// A catch-up with the default options sizes its threads from the CPUs the process may use, as the runtime counts
/// them (<see cref="Environment.ProcessorCount"/>: affinity, cgroup limits, <c>DOTNET_PROCESSOR_COUNT</c>), so that
/// on one CPU it runs the one-thread path, with no read-ahead and no gang (docs/design.md, "Catch-up"). Each case
/// asks a child process, started under that limit, what its default options give.
/// </summary>
public sealed class CatchUpThreadsTests
{
    [Fact]
    public void The_default_is_the_cpus_this_process_may_use() =>
        Assert.Equal(Environment.ProcessorCount, new StreamExistenceFilterOptions { DataDirectory = "." }.CatchUpThreads);

    [Fact]
    public async Task A_process_pinned_to_one_cpu_catches_up_on_one_thread() =>
        Assert.Equal("1", await ChildThreads(["taskset", "-c", "0"], new Dictionary<string, string>()));

    [Fact]
    public async Task A_process_limited_to_one_cpu_by_the_runtime_catches_up_on_one_thread() =>
        Assert.Equal("1", await ChildThreads([], new Dictionary<string, string> { ["DOTNET_PROCESSOR_COUNT"] = "1" }));

    private static async Task<string> ChildThreads(string[] prefix, Dictionary<string, string> environment)
    {
        string[] command = [.. prefix, "dotnet", Path.Combine(AppContext.BaseDirectory, "EventFilter.TestHost.dll"), "catch-up-threads"];
        var start = new ProcessStartInfo(command[0]) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        command[1..].ToList().ForEach(start.ArgumentList.Add);
        foreach ((string name, string value) in environment)
        {
            start.Environment[name] = value;
        }

        using Process child = Process.Start(start)!;
        Task<string> output = child.StandardOutput.ReadToEndAsync();
        Task<string> error = child.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(1)); // a hang fails here, not the whole run
        await child.WaitForExitAsync(timeout.Token);
        Assert.True(child.ExitCode == 0, $"exit {child.ExitCode}: {await output}{await error}");
        return (await output).Trim();
    }
}
