using System.Diagnostics;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.Arm;
using System.Runtime.Intrinsics.X86;

namespace EventFilter.Tests.Blocked;

/// <summary>
/// Every probe pass on every machine: EventFilter.TestHost's <c>probes</c> mode (every lookup and add form against the
/// documented probe sequence) in child processes started with the runtime's switches that hide instruction sets, so
/// the AVX2, 128-bit and scalar passes and the prefetch-less batches run here even where the processor would pick
/// another. A pass the processor lacks cannot be forced on: that row then runs the best one it has, and says so.
/// EVENTFILTER_PROBES=vector128 asks for the 128-bit pass, which x86 runs only when asked (Vector128Probes.IsSupported).
/// .NET 10 reads DOTNET_EnableAVX512 (it ignores the older DOTNET_EnableAVX512F, set too for older runtimes).
/// </summary>
public sealed class ProbePathTests
{
    public static TheoryData<string, string> Switches => new()
    {
        { "", Native() },
        { "DOTNET_EnableAVX512=0 DOTNET_EnableAVX512F=0", Avx2.IsSupported ? "avx2" : Native() },
        { "DOTNET_EnableAVX512=0 DOTNET_EnableAVX512F=0 DOTNET_EnableAVX2=0 EVENTFILTER_PROBES=vector128", Vector128.IsHardwareAccelerated ? "vector128" : "scalar" },
        { "DOTNET_EnableHWIntrinsic=0", "scalar" },
    };

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Each_pass_answers_and_adds_as_the_probe_sequence(string switches, string expectedPass)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "EventFilter.TestHost.dll"));
        start.ArgumentList.Add("probes");
        foreach (string setting in switches.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            start.Environment[setting[..setting.IndexOf('=', StringComparison.Ordinal)]] = setting[(setting.IndexOf('=', StringComparison.Ordinal) + 1)..];
        }

        using Process child = Process.Start(start)!;
        Task<string> error = child.StandardError.ReadToEndAsync();
        Task<string> standardOutput = child.StandardOutput.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(2)); // a hang fails here, not the whole run
        await child.WaitForExitAsync(timeout.Token);
        string output = await standardOutput;
        Assert.True(child.ExitCode == 0, $"exit {child.ExitCode}:\n{output}\n{await error}");
        Assert.StartsWith($"pass {expectedPass} ", output, StringComparison.Ordinal);
        bool prefetch = Sse.IsSupported && !switches.Contains("HWIntrinsic", StringComparison.Ordinal); // x86's instruction, or the loads instead
        Assert.Contains(prefetch ? " prefetch" : " touch", output, StringComparison.Ordinal);
        Assert.Contains("agreed", output, StringComparison.Ordinal);
    }

    private static string Native() =>
        Avx512F.IsSupported ? "avx512" : Avx2.IsSupported ? "avx2" : AdvSimd.Arm64.IsSupported ? "vector128" : "scalar"; // x86 without AVX2 runs the loop
}
