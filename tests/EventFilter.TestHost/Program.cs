// Does what an event log server does to the filter, until it is killed:
//   append a batch of new streams to the log, add them to the filter, fsync the log, and every few batches
//   checkpoint the filter at the durable end. Prints "durable N" after each fsync so the test knows how far it got.
// Usage: EventFilter.TestHost <data-directory> <filter-size-bytes> [seed]
using System.Text;
using EventFilter;
using EventFilter.TestHost;

string directory = args[0];
long size = long.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture);
int seed = args.Length > 2 ? int.Parse(args[2], System.Globalization.CultureInfo.InvariantCulture) : 0;
using var log = new FileStreamNameLog(Path.Combine(directory, "log.bin"));
using var filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = directory, SizeBytes = size, CatchUpCheckpointRecords = 5_000 }, log);
filter.Open();
await filter.CatchUpAsync(CancellationToken.None);

var random = new Random(seed);
long written = log.ReadAllNames().Count;
Console.WriteLine($"ready {written}");
for (int batch = 0; ; batch++)
{
    for (int i = 0; i < 50; i++, written++)
    {
        byte[] name = Encoding.UTF8.GetBytes($"crash-stream-{written}-{random.Next()}");
        log.Append(name);
        filter.Add(name);
    }

    long durable = log.Sync();
    if (batch % 4 == 0)
    {
        filter.Checkpoint(durable);
    }

    Console.WriteLine($"durable {written}");
}
