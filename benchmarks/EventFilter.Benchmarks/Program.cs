using BenchmarkDotNet.Running;
using EventFilter.Benchmarks;
using EventFilter.Benchmarks.Experiments;

// `flush`, `targets`, `scale`, `fpr`, `spread`, `follow` and `alloccheck` are console experiments; anything else goes to BenchmarkDotNet's switcher
// (e.g. `--filter '*MightExist*' --job short`, and `--isa all` for a job per probe pass). See docs/benchmarks.md for every command and the page of its results.
switch (args.FirstOrDefault())
{
    case "flush":
        int json = Array.IndexOf(args, "--json");
        int checkpointer = Array.IndexOf(args, "--checkpointer");
        OursDesign.BatchCheckpoints = !(checkpointer > 0 && checkpointer + 1 < args.Length && args[checkpointer + 1] == "normal");
        int adderCpu = Array.IndexOf(args, "--adder-cpu");
        AdderPlacement.Cpu = adderCpu > 0 && adderCpu + 1 < args.Length ? int.Parse(args[adderCpu + 1], System.Globalization.CultureInfo.InvariantCulture) : null;
        return CheckpointExperiment.Run(json > 0 && json + 1 < args.Length ? args[json + 1] : null);
    case "targets":
        int targetsJson = Array.IndexOf(args, "--json");
        string? targetsJsonPath = targetsJson > 0 && targetsJson + 1 < args.Length ? args[targetsJson + 1] : null;
        return InstructionSets.TakeOption(ref args) is { } passes ? TargetsExperiment.RunPasses(passes, targetsJsonPath) : TargetsExperiment.Run(targetsJsonPath);
    case "scale":
        return ScaleExperiment.Run(args);
    case "fpr":
        return FalsePositiveExperiment.Run(args);
    case "spread":
        return SpreadExperiment.Run();
    case "follow":
        return FollowExperiment.Run(args);
    case "alloccheck":
        return AllocationCheck.Run();
    default:
        // `--isa all` (or e.g. `--isa avx2,scalar`): one job per probe pass, side by side (docs/benchmarks-instruction-sets.md).
        // The config first: it takes `--job short` out of args, which its jobs replace.
        string? isa = InstructionSets.TakeOption(ref args);
        BenchmarkDotNet.Configs.IConfig config = isa is null ? BenchmarkConfig.Create() : BenchmarkConfig.Create(InstructionSets.Select(isa), InstructionSets.TakeShortJob(ref args));
        BenchmarkSwitcher.FromAssembly(typeof(BenchmarkConfig).Assembly).Run(args, config);
        return 0;
}
