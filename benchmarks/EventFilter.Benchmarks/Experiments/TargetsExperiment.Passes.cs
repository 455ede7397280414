using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>targets --isa all|native,avx2,vector128,scalar [--json FILE]</c>: the whole experiment once per probe pass, each
/// in a child process of its own with the runtime switches of <see cref="InstructionSets"/>, one after another, then
/// every row's ratio side by side. Each child judges itself against its own baselines, so the columns compare.
/// </summary>
public static partial class TargetsExperiment
{
    public static int RunPasses(string list, string? jsonPath)
    {
        var passes = InstructionSets.Select(list);
        var results = new JsonObject();
        foreach ((string name, (string Name, string Value)[] environment) in passes)
        {
            Console.WriteLine($"## targets, pass {name} ({(environment.Length == 0 ? "no switches" : string.Join(' ', environment.Select(e => $"{e.Name}={e.Value}")))})");
            string json = Path.Combine(Path.GetTempPath(), $"targets-{name}-{Environment.ProcessId}.json");
            var start = new ProcessStartInfo("dotnet") { UseShellExecute = false };
            foreach (string arg in new[] { typeof(TargetsExperiment).Assembly.Location, "targets", "--json", json })
            {
                start.ArgumentList.Add(arg);
            }

            foreach ((string variable, string value) in environment)
            {
                start.Environment[variable] = value;
            }

            using (Process child = Process.Start(start)!)
            {
                child.WaitForExit();
                if (child.ExitCode != 0)
                {
                    Console.WriteLine($"pass {name} failed with exit code {child.ExitCode}");
                    return child.ExitCode;
                }
            }

            results[name] = JsonNode.Parse(File.ReadAllText(json));
            File.Delete(json);
        }

        if (jsonPath is not null)
        {
            File.WriteAllText(jsonPath, results.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
        }

        Console.WriteLine("## Ratio to each pass's own baseline, side by side");
        string[] names = passes.Select(pass => pass.Name).ToArray();
        JsonArray rows = results[names[0]]!["cases"]!.AsArray();
        MarkdownTable.Print(["case", "goal (ratio)", .. names], rows.Select(row =>
        {
            string caseName = row!["name"]!.GetValue<string>();
            IEnumerable<string> ratios = names.Select(name => results[name]!["cases"]!.AsArray().First(c => c!["name"]!.GetValue<string>() == caseName)!["ratio"]!.GetValue<double>().ToString("F2", CultureInfo.InvariantCulture));
            return (string[])[caseName, "≤ " + F2(row["goal_ratio"]!), .. ratios];
        }).ToList());
        return 0;
    }
}
