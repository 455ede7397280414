using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using System.Text.Json.Nodes;
using EventFilter.Benchmarks.Workload;
using EventFilter.Durability;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// What users run, on every core and on one: the catch-up with the default options beside the same catch-up
/// without intermediate checkpoints. <c>--pinned</c> runs the experiment again, after its own rounds, as a child
/// process under <c>taskset -c 0</c> (so that <c>Environment.ProcessorCount</c>, and with it every thread count the
/// filter chooses, is 1, as for a user's process held to one CPU); the child's rows come back into the same JSON with
/// <c>"pinned": true</c>.
/// </summary>
public static partial class ScaleExperiment
{
    /// <summary>Marks the child run: only <see cref="PinnedPaths"/>, no phases, no machine loops.</summary>
    private const string PinnedChild = "--pinned-child";

    private static string DefaultsPath(int cpus) => $"default options, {cpus} {(cpus == 1 ? "thread" : "threads")}";

    /// <summary>On one CPU: the region path on one thread with its checkpoint only at the end, and the default options.</summary>
    private static CatchUpPath[] PinnedPaths() =>
        [new("region, 1 thread", 1, CatchUpAdds.Regions), new(DefaultsPath(1), 1, CatchUpAdds.Regions, Defaults: true)];

    /// <summary>Runs the catch-up rounds again under <c>taskset -c 0</c>; adds the child's rows, returns its false negatives.</summary>
    private static long RunPinned(string[] args, JsonArray rows)
    {
        GC.Collect(); // the logs of the rounds above are garbage: the child builds its own
        string json = BenchmarkDirectory.Scratch($"scale-pinned-{Guid.NewGuid():N}.json");
        var start = new ProcessStartInfo("taskset") { UseShellExecute = false };
        start.ArgumentList.Add("-c");
        start.ArgumentList.Add("0");
        start.ArgumentList.Add(Environment.ProcessPath!);
        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath) == "dotnet")
        {
            start.ArgumentList.Add(Assembly.GetEntryAssembly()!.Location); // run as `dotnet EventFilter.Benchmarks.dll`
        }

        start.ArgumentList.Add("scale");
        foreach (string passed in new[] { "--sizes", "--rounds", "--bytes-per-name", "--max-names-millions" })
        {
            if (Option(args, passed) is { } value)
            {
                start.ArgumentList.Add(passed);
                start.ArgumentList.Add(value);
            }
        }

        foreach (string flag in new[] { "--large", "--generated-log" })
        {
            if (args.Contains(flag))
            {
                start.ArgumentList.Add(flag);
            }
        }

        foreach (string added in new[] { "--no-phases", PinnedChild, "--json", json })
        {
            start.ArgumentList.Add(added);
        }

        Console.Error.WriteLine($"pinned: {string.Join(' ', start.ArgumentList)}");
        using Process child = Process.Start(start)!;
        child.WaitForExit();
        try
        {
            if (child.ExitCode is not (0 or 1))
            {
                throw new InvalidOperationException($"The pinned run failed with exit code {child.ExitCode}.");
            }

            JsonObject result = JsonNode.Parse(File.ReadAllText(json))!.AsObject();
            foreach (JsonNode? row in result["rows"]!.AsArray().ToArray())
            {
                rows.Add(row!.DeepClone());
            }

            return result["false_negatives"]!.GetValue<long>();
        }
        finally
        {
            BenchmarkDirectory.DeleteQuietly(json);
        }
    }

    /// <summary>
    /// Per size and CPU count, each round's default catch-up against the same round's catch-up without intermediate
    /// checkpoints (the region path on every CPU the process may use), and the checkpoints the default one took.
    /// </summary>
    private static void PrintDefaults(JsonArray rows, long[] sizes)
    {
        var table = new List<IReadOnlyList<string>>();
        foreach (long size in sizes)
        {
            JsonObject[] ofSize = [.. rows.Select(r => r!.AsObject()).Where(r => r["size_mib"]!.GetValue<long>() == size / MiB && r["cpus"] is not null)];
            foreach (JsonObject defaults in ofSize.Where(r => r["path"]!.GetValue<string>().StartsWith("default options", StringComparison.Ordinal)))
            {
                int cpus = defaults["cpus"]!.GetValue<int>();
                string without = cpus == 1 ? "region, 1 thread" : $"region, {cpus} threads";
                JsonObject? baseline = ofSize.FirstOrDefault(r => r["path"]!.GetValue<string>() == without && r["round"]!.GetValue<int>() == defaults["round"]!.GetValue<int>() && r["pinned"]!.GetValue<bool>() == defaults["pinned"]!.GetValue<bool>());
                double ns = defaults["ns_per_name"]!.GetValue<double>();
                double? other = baseline?["ns_per_name"]!.GetValue<double>();
                JsonNode taken = defaults["catch_up_checkpoints"]!;
                table.Add([
                    $"{size / MiB} MiB", defaults["pinned"]!.GetValue<bool>() ? $"{cpus} (taskset -c 0)" : $"{cpus}", $"{defaults["round"]}",
                    string.Create(CultureInfo.InvariantCulture, $"{ns:F1} = {defaults["x_chase"]}"),
                    other is { } o ? string.Create(CultureInfo.InvariantCulture, $"{o:F1} = {baseline!["x_chase"]}") : "-",
                    other is { } p ? string.Create(CultureInfo.InvariantCulture, $"{ns / p:F3}") : "-",
                    $"{taken["count"]}, {taken["seconds"]} s, {taken["mib"]} MiB",
                ]);
            }
        }

        if (table.Count > 0)
        {
            MarkdownTable.Print(["size", "CPUs", "round", "default options, ns/name = x chase", "no intermediate checkpoints", "ratio (goal ≤ 1.10)", "checkpoints before ready: count, time, written"], table);
        }
    }
}
