namespace EventFilter.DaemonBench.Report;

/// <summary>One mode's rows, with the machine's load average (1, 5, 15 min) before and after them.</summary>
internal sealed record ModeResult(string Mode, string LoadBefore, string LoadAfter, IReadOnlyList<RowResult> Rows);

/// <summary>
/// Everything one run measured, for the JSON file and the printed tables. A peer that was left out has a null
/// description and the reason in its Skipped field.
/// </summary>
internal sealed record RunResult(bool Quick, string Ours, string? Redis, string? RedisSkipped, string? RedisBloom, string? RedisBloomSkipped, IReadOnlyList<ModeResult> Modes)
{
    /// <summary>The load average from /proc/loadavg, as "1min 5min 15min".</summary>
    public static string LoadAverage() =>
        File.Exists("/proc/loadavg") ? string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "unknown";
}
