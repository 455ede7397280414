namespace EventFilter.Benchmarks;

/// <summary>
/// The probe passes (docs/design.md, "Hot path"), each as the runtime switches that make a process on this machine
/// take it: hiding AVX-512 leaves AVX2, hiding AVX2 too and asking for it leaves the 128-bit pass (ARM64's), hiding every
/// intrinsic leaves the scalar loop and batches without a prefetch instruction. A pass above what the processor has
/// runs the best one below it. <c>targets --isa</c> and the BenchmarkDotNet jobs of <c>--isa</c> use these; see
/// docs/benchmarks-instruction-sets.md.
/// </summary>
public static class InstructionSets
{
    // .NET 10 reads DOTNET_EnableAVX512 and ignores the older DOTNET_EnableAVX512F; both are set, for either runtime.
    private static readonly (string Name, string Value)[] NoAvx512 = [("DOTNET_EnableAVX512", "0"), ("DOTNET_EnableAVX512F", "0")];

    public static IReadOnlyList<(string Name, (string Name, string Value)[] Environment)> All { get; } =
    [
        ("native", []),
        ("avx2", NoAvx512),
        ("vector128", [.. NoAvx512, ("DOTNET_EnableAVX2", "0"), ("EVENTFILTER_PROBES", "vector128")]),
        ("scalar", [("DOTNET_EnableHWIntrinsic", "0")]),
    ];

    /// <summary>The passes named in <paramref name="list"/> ("all", or names joined by commas), in the order of <see cref="All"/>.</summary>
    public static IReadOnlyList<(string Name, (string Name, string Value)[] Environment)> Select(string list)
    {
        string[] names = list.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        string[] unknown = names.Where(name => name != "all" && All.All(pass => pass.Name != name)).ToArray();
        return unknown.Length > 0
            ? throw new ArgumentException($"Unknown pass {string.Join(", ", unknown)}: use all or any of {string.Join(", ", All.Select(pass => pass.Name))}.")
            : All.Where(pass => names.Contains("all") || names.Contains(pass.Name)).ToList();
    }

    /// <summary>
    /// This machine for a result: the CPU's name, family and model from /proc/cpuinfo (hosts of one name differ), the
    /// CPUs this process may use and the widest vector pass it runs, e.g. "AMD EPYC (family 25 model 1), 2 CPUs, AVX2".
    /// </summary>
    public static string DescribeMachine()
    {
        string[] cpuinfo = File.Exists("/proc/cpuinfo") ? File.ReadAllLines("/proc/cpuinfo") : [];
        string Field(string name) => cpuinfo.FirstOrDefault(line => line.StartsWith(name, StringComparison.Ordinal) && line[name.Length..].TrimStart().StartsWith(':'))?.Split(':', 2)[1].Trim() ?? "?";
        string pass = System.Runtime.Intrinsics.X86.Avx512F.IsSupported ? "AVX-512"
            : System.Runtime.Intrinsics.X86.Avx2.IsSupported ? "AVX2"
            : System.Runtime.Intrinsics.Vector128.IsHardwareAccelerated ? "128-bit vectors" : "no vectors";
        return $"{Field("model name")} (family {Field("cpu family")} model {Field("model")}), {Environment.ProcessorCount} CPUs, {pass}";
    }

    /// <summary>Takes <c>--isa LIST</c> out of <paramref name="args"/>: null when it is not there.</summary>
    public static string? TakeOption(ref string[] args)
    {
        int at = Array.IndexOf(args, "--isa");
        if (at < 0 || at + 1 >= args.Length)
        {
            return null;
        }

        string list = args[at + 1];
        args = [.. args[..at], .. args[(at + 2)..]];
        return list;
    }

    /// <summary>Takes <c>--job short</c> out of <paramref name="args"/>, whose jobs <c>--isa</c> replaces: true when it was there.</summary>
    public static bool TakeShortJob(ref string[] args)
    {
        int at = Array.IndexOf(args, "--job");
        if (at < 0 || at + 1 >= args.Length || args[at + 1] != "short")
        {
            return false;
        }

        args = [.. args[..at], .. args[(at + 2)..]];
        return true;
    }
}
