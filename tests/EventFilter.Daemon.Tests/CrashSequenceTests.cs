using System.Globalization;
using Xunit.Abstractions;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Any sequence of crashes (docs/reliability.md, "eventfilterd's crash sequences"): a daemon under load from a client
/// creating, adding to and dropping filters is killed at one of its own kill points (EVENTFILTERD_KILL_AT) inside a
/// tick or a command, then each following start is killed at a point inside the start (or, if it never reaches that
/// point, once it listens), at least three kills deep; a clean start then must hold every acknowledged create, drop
/// and add. Seeded: a failure names the seed, and EVENTFILTERD_CRASH_SEED=seed replays that one sequence.
/// EVENTFILTER_RELIABILITY=full runs 500 sequences per sync mode instead of 6; EVENTFILTERD_CRASH_SEQUENCES=n runs n.
/// </summary>
public sealed class CrashSequenceTests(ITestOutputHelper output)
{
    private static readonly string[] PeriodicLoadPoints = ["tick.begun", "tick.materialized", "tick.filter-synced", "tick.synced", "tick.emptied", "create.recorded", "drop.renamed"];
    private static readonly string[] AlwaysLoadPoints = ["create.made", "drop.renamed"];
    private static readonly string[] PeriodicStartPoints = ["start.opened", "start.replayed", "start.drop-removed", "start.begun", "start.materialized", "start.filter-synced", "start.synced", "start.emptied"];
    // With --log-sync always a start has no control records to finish, unless a periodic run left them.
    private static readonly string[] AlwaysStartPoints = ["start.opened", "start.replayed"];

    [Theory]
    [InlineData("periodic")]
    [InlineData("always")]
    public void Every_acknowledged_create_drop_and_add_survives_any_sequence_of_kills(string sync)
    {
        string? replay = Environment.GetEnvironmentVariable("EVENTFILTERD_CRASH_SEED");
        int[] seeds = replay is not null
            ? [int.Parse(replay, CultureInfo.InvariantCulture)]
            : [.. Enumerable.Range(0, Sequences()).Select(_ => Random.Shared.Next())];
        var landed = new Dictionary<string, int>(StringComparer.Ordinal);
        long checkedItems = 0;
        foreach (int seed in seeds)
        {
            (long items, string trail) = sync == "periodic"
                ? CrashSequence.Run(seed, sync, PeriodicLoadPoints, PeriodicStartPoints, landed)
                : CrashSequence.Run(seed, sync, AlwaysLoadPoints, AlwaysStartPoints, landed);
            checkedItems += items;
            output.WriteLine($"seed {seed}:{trail}");
        }

        output.WriteLine($"{seeds.Length} sequences, --log-sync {sync}, {checkedItems:N0} acknowledged items checked; kills by point:");
        foreach ((string point, int count) in landed.OrderBy(pair => pair.Key, StringComparer.Ordinal))
        {
            output.WriteLine($"  {point}: {count}");
        }
    }

    /// <summary>EVENTFILTERD_CRASH_SEQUENCES=n runs n per mode; else 6 in CI and 500 with EVENTFILTER_RELIABILITY=full.</summary>
    private static int Sequences() =>
        int.TryParse(Environment.GetEnvironmentVariable("EVENTFILTERD_CRASH_SEQUENCES"), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int count) && count > 0
            ? count
            : ReliabilityScale.Pick(ci: 6, full: 500);
}
