namespace EventFilter.DaemonBench.Report;

/// <summary>
/// The source document's published bloomd and RedisBloom figures (its benchmark snapshot: another machine, Redis 8.0.2
/// with RedisBloom, medians of 5 repeats), in each row's unit, printed beside ours for reference only: compare within
/// one run, never across machines. RedisBloom has figures for the operation rows only.
/// </summary>
internal static class PublishedFigures
{
    private static readonly Dictionary<string, (double Bloomd, double? RedisBloom)> Figures = new()
    {
        ["control cycle"] = (145_138.6, 187_650.5),
        ["single add"] = (22_426.2, 29_498.0),
        ["single check"] = (22_405.7, 27_807.4),
        ["batch-8 add"] = (4_150.3, 7_150.1),
        ["batch-8 check"] = (3_936.3, 6_651.8),
        ["batch-32 add"] = (1_541.4, 4_609.7),
        ["batch-32 check"] = (1_526.0, 4_531.7),
        ["batch-128 add"] = (981.0, 4_127.5),
        ["batch-128 check"] = (933.3, 4_082.1),
        ["mixed 90/10"] = (22_756.0, 26_886.0),
        ["cold startup"] = (73.11, null),
        ["restart startup"] = (73.82, null),
        ["RSS, one filled 1M filter"] = (7_492 / 1024.0, null),
        ["reconnect (median)"] = (41_095.5, null),
        ["4-client throughput"] = (36_477.2, null),
        ["4-client p50"] = (90_515, null),
        ["4-client p95"] = (235_616, null),
        ["control churn"] = (8_467.4, null),
        ["filter scale 1"] = (21_713, null),
        ["filter scale 64"] = (23_963, null),
        ["filter scale 256"] = (25_468, null),
        ["filter scale 512"] = (28_010, null),
    };

    public static (double? Bloomd, double? RedisBloom) For(string row) =>
        Figures.TryGetValue(row, out var figures) ? (figures.Bloomd, figures.RedisBloom) : (null, null);
}
