using System.Diagnostics;
using System.Text;

namespace EventFilter.Daemon.Tests.RedisClients;

/// <summary>One run of a Redis tool (redis-cli, redis-benchmark, python with redis-py) against the daemon: its input, exit code and output.</summary>
internal static class ToolRun
{
    // A guard against a hung tool only: each run here takes well under a second.
    private static readonly TimeSpan HangGuard = TimeSpan.FromMinutes(2);

    public static (int ExitCode, string Output) Of(string tool, string? input, params string[] arguments)
    {
        var start = new ProcessStartInfo(tool)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            Environment = { ["PYTHONDONTWRITEBYTECODE"] = "1" },
        };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start)!;
        var output = new StringBuilder();
        process.OutputDataReceived += (_, e) => Append(output, e.Data);
        process.ErrorDataReceived += (_, e) => Append(output, e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        process.StandardInput.Write(input ?? "");
        process.StandardInput.Close();
        if (!process.WaitForExit(HangGuard))
        {
            process.Kill();
            Assert.Fail($"{tool} {string.Join(' ', arguments)} did not end within {HangGuard}:\n{Text(output)}");
        }

        process.WaitForExit(); // drains the redirected output
        return (process.ExitCode, Text(output));
    }

    private static void Append(StringBuilder output, string? line)
    {
        if (line is not null)
        {
            lock (output)
            {
                output.AppendLine(line);
            }
        }
    }

    private static string Text(StringBuilder output)
    {
        lock (output)
        {
            return output.ToString();
        }
    }
}

/// <summary>
/// Skips, with the reason, where a Debian tool is missing (outside CI: .ci/run installs redis-tools,
/// prometheus-redis-exporter and python3-redis).
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class RedisToolFactAttribute : FactAttribute
{
    public RedisToolFactAttribute(string tool, string package)
    {
        if (!File.Exists(tool))
        {
            Skip = $"{tool} is missing: apt-get install {package}";
        }
    }
}
