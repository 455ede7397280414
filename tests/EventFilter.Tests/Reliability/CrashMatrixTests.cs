using System.Globalization;
using System.Text;
using EventFilter.Errors;
using EventFilter.Tests.Durability;
using EventFilter.TestHost;
using Xunit.Abstractions;

namespace EventFilter.Tests.Reliability;

/// <summary>
/// SIGKILL at random points of every phase a server lives through: adds, flush and checkpoint, catch-up, rebuild and
/// resize. After each kill: the checkpoint is never ahead of the durable log, every name before it is already in the
/// file, catch-up leaves no false negative, and the child never died of an unhandled exception. 20 kills in CI, 200 full.
/// </summary>
public sealed class CrashMatrixTests(ITestOutputHelper output) : IDisposable
{
    private const long SizeA = 1 << 20, SizeB = 1 << 21;
    private static readonly string[] Setups = ["steady", "catch-up", "rebuild", "resize", "fold"];
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Kills_at_random_points_of_every_phase_lose_no_logged_stream()
    {
        int kills = ReliabilityScale.Pick(ci: 25, full: 200);
        var random = new Random(8);
        var landedIn = new Dictionary<string, int>();
        long size = SizeA, repaired = 0;
        for (int kill = 0; kill < kills; kill++)
        {
            string setup = Setups[kill % Setups.Length];
            size = Prepare(setup, size, random);
            string phase = await KillOnceAsync(setup, size, kill, random);
            landedIn[phase] = landedIn.GetValueOrDefault(phase) + 1;
            repaired += await VerifyAsync(size);
        }

        output.WriteLine($"kills: {kills}; lines repaired after kills: {repaired}; landed in: {string.Join(", ", landedIn.OrderBy(p => p.Key).Select(p => $"{p.Key} {p.Value}"))}");
        foreach (string expected in new[] { "steady/add", "catch-up/catch-up", "rebuild/catch-up", "resize/while building", "fold/fold" })
        {
            Assert.True(landedIn.ContainsKey(expected), $"no kill landed in {expected}: " + string.Join(", ", landedIn.Keys));
        }
    }

    private long Prepare(string setup, long size, Random random)
    {
        string filter = Path.Combine(_dir.Path, StreamExistenceFilterOptions.DefaultFileName);
        switch (setup)
        {
            case "catch-up":
                // No position at all: the checkpoint file and the journal's commits both go.
                File.Delete(CheckpointFile.PathFor(filter));
                EventFilter.Journal.JournalFiles.Delete(filter);
                return size;
            case "rebuild" when File.Exists(filter):
                Integrity.CorruptionTests.CorruptRandomLines(filter, 0.2, random.Next());
                return size;
            case "resize":
                return size == SizeA ? SizeB : SizeA;
            default:
                return size;
        }
    }

    private async Task<string> KillOnceAsync(string setup, long size, int kill, Random random)
    {
        int readDelay = setup switch { "steady" or "fold" => 0, "resize" => 40, _ => 30 };
        using var child = new ChildProcess(_dir.Path, size.ToString(CultureInfo.InvariantCulture), kill.ToString(CultureInfo.InvariantCulture), readDelay.ToString(CultureInfo.InvariantCulture), FoldMode(setup, kill));
        if (setup == "fold")
        {
            // Every other fold kill stalls the child half-way through a fold, so some kill lands inside one for certain;
            // the others kill as soon as a fold has started: inside it or just after.
            if (FoldMode(setup, kill) == "fold")
            {
                await child.WaitForAppendsAsync(random.Next(50, 1_000));
            }

            await child.WaitForPhaseAsync("fold");
        }
        else if (setup == "steady" || setup == "resize")
        {
            await child.WaitForAppendsAsync(random.Next(50, 2_000));
            if (setup == "steady" && kill / Setups.Length % 2 == 0)
            {
                // Every other steady kill waits for the adds to be under way, so some kill lands among them for certain;
                // the others kill wherever the appends left the child (adds, its log's fsync, or a checkpoint).
                await child.WaitUntilInPhaseAsync("add");
            }
        }
        else
        {
            // Catch-up reads at least five batches at 30 ms each here: a kill within 120 ms of its start lands inside it.
            await child.WaitForPhaseAsync("catch-up");
            await Task.Delay(random.Next(0, 120));
        }

        string phase = setup switch
        {
            "resize" => child.Saw("resized") ? "resize/after swap" : "resize/while building",
            "rebuild" => child.Saw("rebuild TooCorrupted") ? $"rebuild/{child.Phase}" : $"rebuild (nothing to rebuild)/{child.Phase}",
            _ => $"{setup}/{child.Phase}",
        };
        Assert.False(child.HasExited, $"the child exited by itself in phase {phase}: {child.Errors}");
        child.Kill();
        Assert.DoesNotContain("Unhandled", child.Errors, StringComparison.Ordinal);
        return phase;
    }

    private static string FoldMode(string setup, int kill) => setup != "fold" ? "serve" : kill / Setups.Length % 2 == 0 ? "fold-stall" : "fold";

    /// <summary>Checks the files a kill left behind against the durable log; returns the lines repaired on open.</summary>
    private async Task<long> VerifyAsync(long size)
    {
        using var log = new FileStreamNameLog(Path.Combine(_dir.Path, "log.bin"));
        List<string> names = log.ReadAllNames();
        string filterPath = Path.Combine(_dir.Path, StreamExistenceFilterOptions.DefaultFileName);
        AssertCheckpointCoversOnlyWhatTheFileHolds(filterPath, names, log.EndPosition);

        var observer = new RecordingObserver();
        var options = new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = size };
        using var filter = new StreamExistenceFilter(options, log, observer);
        filter.Open();
        Assert.InRange(filter.CheckpointPosition!.Value, 0, log.EndPosition);
        await filter.CatchUpAsync(CancellationToken.None);
        Assert.DoesNotContain(names, n => !filter.MightExist(n));
        filter.Checkpoint(log.EndPosition);
        return observer.LastVerification?.RepairedLines ?? 0;
    }

    /// <summary>
    /// Before any catch-up, every name in records before the durable position (the journal's last commit, else the
    /// checkpoint file) must already be in the file and journal it names.
    /// </summary>
    private void AssertCheckpointCoversOnlyWhatTheFileHolds(string filterPath, List<string> names, long durableEnd)
    {
        if (!File.Exists(filterPath))
        {
            return;
        }

        // Judge the files as the filter would: on a copy, journal replayed, mismatched lines repaired to all ones.
        string copy = Path.Combine(_dir.Path, "verify-copy", "filter");
        Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
        FilterImage.CopyTo(filterPath, copy);
        long sizeBytes;
        using (FilterFile header = FilterFile.OpenExisting(copy)) { sizeBytes = header.Header.SizeBytes; }
        using FilterFile file = FilterFile.Open(copy, new FilterFileOptions { SizeBytes = sizeBytes, CorruptionThreshold = 0.999999 });
        long? durable = file.CommittedPosition;
        if (durable is null)
        {
            Checkpoint? checkpoint;
            try
            {
                checkpoint = CheckpointFile.TryRead(CheckpointFile.PathFor(filterPath));
            }
            catch (InvalidCheckpointException)
            {
                return; // written atomically, so this would be a defect: the open below reports it as ignored, and catch-up covers it
            }

            if (checkpoint is null || checkpoint.FilterFileId != file.Header.FileId)
            {
                return; // no position, or a stale one that vouches for nothing
            }

            durable = checkpoint.Position;
        }

        Assert.InRange(durable.Value, 0, durableEnd);

        long position = 0;
        foreach (string name in names)
        {
            position += 2 + Encoding.UTF8.GetByteCount(name);
            if (position > durable.Value)
            {
                break;
            }

            Assert.True(file.MightExist(name), $"'{name}' is before checkpoint {durable.Value} but not in the file");
        }
    }
}
