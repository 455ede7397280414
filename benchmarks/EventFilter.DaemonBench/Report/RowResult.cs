using EventFilter.DaemonBench.Client;

namespace EventFilter.DaemonBench.Report;

/// <summary>One server's figure for one row, with the per-operation distribution where the row has one.</summary>
internal sealed record Measurement(double Value, Distribution? Distribution = null);

/// <summary>
/// One row of the table in one mode: our figure, Redis's and RedisBloom's (null when that peer was left out, or the
/// row does not apply to it), and the goal. Every row's goal includes being ahead of Redis; some add a limit
/// (<see cref="Limit"/>, in the row's unit).
/// </summary>
/// <param name="Judged">False for a --quick smoke, whose counts are too small to judge a goal by: <see cref="Met"/> is null.</param>
internal sealed record RowResult(string Name, string Unit, bool HigherIsBetter, Measurement Ours, Measurement? Redis, Measurement? RedisBloom, double? Limit, string Goal, bool Judged = true)
{
    public bool? Ahead => Lead(Redis) is { } lead ? lead > 1 : null;

    public bool? AheadOfRedisBloom => Lead(RedisBloom) is { } lead ? lead > 1 : null;

    public bool? WithinLimit => Limit is not { } limit ? null : HigherIsBetter ? Ours.Value >= limit : Ours.Value <= limit;

    /// <summary>Null when the run is not judged, or a part of the goal could not be (Redis skipped) and no part failed.</summary>
    public bool? Met => !Judged ? null : Ahead == false || WithinLimit == false ? false : Ahead is null ? null : true;

    /// <summary>How many times better ours is than <paramref name="peer"/>'s figure: above 1 is ahead; null without a figure.</summary>
    public double? Lead(Measurement? peer) =>
        peer is null ? null : HigherIsBetter ? Ours.Value / peer.Value : peer.Value / Ours.Value;
}
