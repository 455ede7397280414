using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using Xunit.Abstractions;

namespace EventLog.Server.Tests;

/// <summary>
/// SIGKILL of the server where the engine does its own file work: segment rollover, index-file flushes and merges
/// under load (64 KB segments, 200-entry memtables, merges of every 2 files), and the index replay of a long log tail
/// during start. After each kill the engine itself checks the directory (<see cref="EngineCheck"/>). 20 kills in CI,
/// 200 with EVENTFILTER_RELIABILITY=full.
/// </summary>
/// <remarks>
/// Where each kill landed is read from what it left on disk and printed; it is not asserted, because a kill's timing
/// is up to the scheduler. What is built in is that every phase runs many times in every round: each round waits for
/// 1,500 acknowledged appends (two or more rollovers, seven flushes, merges) before its kill window opens.
/// </remarks>
public sealed class EngineCrashPathTests(ITestOutputHelper output)
{
    private const int LoadClients = 8;
    private const int SmallMemTable = 200;
    private const int HugeMemTable = 1_000_000;

    // With a 64-byte event type every record is over 100 bytes, so 1,500 appends fill more than two 64 KB segments,
    // and seven memtables (so merges too): every load round rolls over at least once before its kill window.
    private const int AcksBeforeKillWindow = 1_500;
    private static readonly string EventType = new('T', 64);

    [Fact]
    public async Task Killed_in_rollover_flush_merge_and_start_replay_every_acknowledged_event_survives_and_the_index_matches_the_log()
    {
        using var directory = new TempDirectory();
        var acknowledged = new ConcurrentDictionary<string, long>(StringComparer.Ordinal);
        var tally = new ConcurrentDictionary<string, int>(StringComparer.Ordinal);
        var random = new Random(15);
        int kills = 0, loadRounds = 0, target = ReliabilityScale.Full ? 200 : 20;
        long checkedTo = 0;

        for (int round = 0; kills < target; round++)
        {
            if (round % 4 == 3)
            {
                // A long tail outside the index: a huge memtable is never flushed before the kill. The next start
                // replays it into small memtables, writing and merging index files, and is killed doing so.
                Count(tally, await KillUnderLoadAsync(directory.Path, round, HugeMemTable, acknowledged, random));
                loadRounds++;
                checkedTo = await EngineCheck.VerifyAsync(directory.Path, HugeMemTable, acknowledged, checkedTo, 500, random);
                Count(tally, await KillDuringStartAsync(directory.Path, random));
                kills += 2;
            }
            else
            {
                Count(tally, await KillUnderLoadAsync(directory.Path, round, SmallMemTable, acknowledged, random));
                loadRounds++;
                kills++;
            }

            checkedTo = await EngineCheck.VerifyAsync(directory.Path, SmallMemTable, acknowledged, checkedTo, 500, random);
        }

        await EngineCheck.VerifyAsync(directory.Path, SmallMemTable, acknowledged, checkedTo, olderSample: -1, random);
        int segments = Directory.GetFiles(Path.Combine(directory.Path, "log")).Length;
        output.WriteLine($"{kills} kills, {acknowledged.Count:N0} acknowledged streams, {segments} segments; where the kills landed: "
            + string.Join(", ", tally.OrderBy(t => t.Key, StringComparer.Ordinal).Select(t => $"{t.Value} {t.Key}")));
        Assert.True(segments > loadRounds, $"{segments} segments after {loadRounds} load rounds: each must have rolled over at least once");
    }

    private static async Task<string> KillUnderLoadAsync(string directory, int round, int memTableEntries, ConcurrentDictionary<string, long> acknowledged, Random random)
    {
        using ServerProcess server = await ServerProcess.StartAsync(directory, EngineCheck.Switches(memTableEntries));
        int before = acknowledged.Count;
        using var stopLoad = new CancellationTokenSource();
        var progress = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task load = LoadAsync(server.Api.Address, round, acknowledged, () =>
        {
            if (acknowledged.Count >= before + AcksBeforeKillWindow)
            {
                progress.TrySetResult();
            }
        }, stopLoad.Token);
        await progress.Task.WaitAsync(Poll.Bound);

        // The kill lands at a random moment of the load: a point in time, not a synchronisation.
        await Task.Delay(random.Next(0, 400));
        server.Kill();
        string landed = WhereItLanded(directory, memTableEntries == HugeMemTable ? "under load, tail left unindexed" : "under load");
        await stopLoad.CancelAsync();
        await load;
        return landed;
    }

    private static async Task<string> KillDuringStartAsync(string directory, Random random)
    {
        using ServerProcess server = ServerProcess.Launch(directory, EngineCheck.Switches(SmallMemTable));
        await server.WaitForLineAsync("Opening the event log");
        await Task.Delay(random.Next(0, 60));
        server.Kill();
        string index = Path.Combine(directory, "index");
        return server.Output.Contains("Event log opened", StringComparison.Ordinal) ? "at start, after the index replay"
            : Directory.Exists(index) && Directory.GetFiles(index, "*.tmp").Length > 0 ? "at start: mid index-file write of the replay"
            : "at start: during recovery and index replay";
    }

    // What the dead process left on disk says what it was doing.
    private static string WhereItLanded(string directory, string when)
    {
        string index = Path.Combine(directory, "index");
        string[] segments = [.. Directory.GetFiles(Path.Combine(directory, "log")).Order(StringComparer.Ordinal)];
        if (Directory.Exists(index) && Directory.GetFiles(index, "*.tmp").Length > 0)
        {
            return $"{when}: mid index-file write (flush or merge)";
        }

        return segments.Length > 1 && new FileInfo(segments[^1]).Length < 8 * 1024
            ? $"{when}: within 8 KB of a segment rollover"
            : $"{when}: elsewhere (appends, fsyncs)";
    }

    private static void Count(ConcurrentDictionary<string, int> tally, string landed) => tally.AddOrUpdate(landed, 1, (_, n) => n + 1);

    // Each client appends to new streams, and every third append to its own hot stream with the exact expected
    // version, so the index holds both many small streams and long ones. Only a 201 counts as acknowledged.
    private static async Task LoadAsync(Uri address, int round, ConcurrentDictionary<string, long> acknowledged, Action onAck, CancellationToken stop)
    {
        async Task ClientAsync(int client)
        {
            using var api = new EventsApi(address);
            string hot = $"r{round}-hot-{client}";
            long hotNext = 0;
            for (long i = 0; !stop.IsCancellationRequested; i++)
            {
                bool toHot = i % 3 == 0;
                string stream = toHot ? hot : $"r{round}-c{client}-{i}";
                long number = toHot ? hotNext : 0;
                string expected = number == 0 ? "no-stream" : (number - 1).ToString(CultureInfo.InvariantCulture);
                try
                {
                    ApiResponse answer = await api.AppendAsync(stream, expected, EventsApi.OneEvent(EventType, number.ToString(CultureInfo.InvariantCulture)));
                    Assert.True(answer.Status == HttpStatusCode.Created, answer.ToString());
                }
                catch (Exception error) when (error is HttpRequestException or OperationCanceledException)
                {
                    return; // killed: this append may or may not be in the log, and was never acknowledged
                }

                acknowledged[stream] = number;
                hotNext += toHot ? 1 : 0;
                onAck();
            }
        }

        await Task.WhenAll(Enumerable.Range(0, LoadClients).Select(client => Task.Run(() => ClientAsync(client))));
    }
}
