// Does what an event log server does to the filter, until it is killed:
//   append a batch of new streams to the log, add them to the filter, fsync the log, and every few batches
//   checkpoint the filter at the durable end. Prints phase markers so a crash test knows where its kill landed:
//   "phase open", "phase catch-up", "ready N", "phase add", "phase checkpoint", "durable N".
// With the mode "fold" it drives a bare filter file instead, and folds its journal into the file after every
// checkpoint: "phase fold" ... "phase folded".
// Usage: EventFilter.TestHost <data-directory> <filter-size-bytes> [seed] [read-delay-ms] [serve|fold|fold-stall]
// With the single argument "probes" it checks every probe form against the probe sequence instead (ProbePaths.cs);
// with "catch-up-threads" it prints how many threads a catch-up with the default options takes in this process.
using System.Globalization;
using EventFilter;
using EventFilter.TestHost;

if (args is ["probes"])
{
    Environment.Exit(ProbePaths.Run());
}

if (args is ["catch-up-threads"])
{
    Console.WriteLine(new StreamExistenceFilterOptions { DataDirectory = "." }.CatchUpThreads.ToString(CultureInfo.InvariantCulture));
    return;
}

string directory = args[0];
long size = long.Parse(args[1], CultureInfo.InvariantCulture);
int seed = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 0;
int readDelay = args.Length > 3 ? int.Parse(args[3], CultureInfo.InvariantCulture) : 0;

using var log = new FileStreamNameLog(Path.Combine(directory, "log.bin")) { ReadDelay = TimeSpan.FromMilliseconds(readDelay) };

// A small fold threshold, so the background fold (blocks, fsync, checkpoint rename, journal delete) runs every few checkpoints.
var options = new StreamExistenceFilterOptions { DataDirectory = directory, SizeBytes = size, CatchUpCheckpointRecords = 2_000, JournalFoldBytes = 32 * 1024 };
if (args.Length > 4 && args[4] is "fold" or "fold-stall")
{
    FoldLoop.Run(options, log, seed, stall: args[4] == "fold-stall");
    return;
}

using var filter = new StreamExistenceFilter(options, log, new PhaseObserver());
Console.WriteLine("phase open");
filter.Open();
Console.WriteLine("phase catch-up");
Task catchUp = filter.CatchUpAsync(CancellationToken.None); // goes on into a resize, if the size changed
await filter.WhenReady;

var random = new Random(seed);
long written = log.ReadAllNames().Count;
Console.WriteLine($"ready {written}");
for (int batch = 0; ; batch++)
{
    Console.WriteLine("phase add");
    written = log.AppendBatch(written, random, (name, end) => filter.Add(name, end));

    long durable = log.Sync();
    if (batch % 4 == 0)
    {
        Console.WriteLine("phase checkpoint");
        filter.Checkpoint(durable);
    }

    Console.WriteLine($"durable {written}");
    if (catchUp.IsFaulted)
    {
        await catchUp; // surfaces the failure: a crash test treats any unhandled exception as a defect
    }
}

/// <summary>Prints what the filter does in the background, for the crash test's phase attribution.</summary>
internal sealed class PhaseObserver : EventFilter.FilterObserver
{
    public override void RebuildStarted(string path, EventFilter.RebuildReason reason, string detail) => Console.WriteLine($"phase rebuild {reason}");

    public override void ResizeStarted(string path, long fromSizeBytes, long toSizeBytes) => Console.WriteLine("phase resize");

    public override void ResizeCompleted(string path, long sizeBytes) => Console.WriteLine("phase resized");
}
