using System.Text;
using EventFilter.Errors;

namespace EventFilter.TestHost;

/// <summary>
/// The fold phase on its own, for crash tests: a bare filter file whose every checkpoint is followed by a synchronous
/// fold, so a kill between "phase fold" and "phase folded" lands inside one (block writes, fsync, checkpoint rename,
/// journal delete). Catches up from the log first, so the file always covers what the log holds.
/// </summary>
internal static class FoldLoop
{
    /// <param name="stall">When true, the first fold stops for good after its first run of blocks, so a kill lands
    /// inside it for certain: blocks half-written, the checkpoint not renamed, the journal not deleted.</param>
    public static void Run(StreamExistenceFilterOptions options, FileStreamNameLog log, int seed, bool stall)
    {
        Console.WriteLine("phase open");
        var fileOptions = new FilterFileOptions { SizeBytes = options.SizeBytes };
        FilterFile filter;
        try
        {
            filter = FilterFile.Open(options.FilterPath, fileOptions);
        }
        catch (FilterSizeMismatchException)
        {
            filter = FilterFile.Create(options.FilterPath, fileOptions);
        }

        if (filter.RebuildRequired)
        {
            filter.Dispose();
            filter = FilterFile.Create(options.FilterPath, fileOptions);
        }

        using (filter)
        {
            long start = filter.CommittedPosition ?? StartFromCheckpointFile(options.FilterPath, filter.Header.FileId);
            long position = 0, written = 0;
            foreach (string name in log.ReadAllNames())
            {
                position += 2 + Encoding.UTF8.GetByteCount(name);
                if (position > start)
                {
                    filter.Add(name);
                }

                written++;
            }

            filter.Flush(position: log.EndPosition);
            Console.WriteLine($"ready {written}");
            var random = new Random(seed);
            for (int batch = 0; ; batch++)
            {
                Console.WriteLine("phase add");
                written = log.AppendBatch(written, random, (name, _) => filter.Add(name));

                long durable = log.Sync();
                Console.WriteLine("phase checkpoint");
                filter.Flush(position: durable);
                Console.WriteLine($"durable {written}");
                if (batch % 3 == 2)
                {
                    if (stall)
                    {
                        filter.BlocksWritten = _ =>
                        {
                            Console.WriteLine("phase fold");
                            Thread.Sleep(Timeout.Infinite); // until the test kills the process
                        };
                    }

                    Console.WriteLine("phase fold");
                    filter.FoldJournal();
                    Console.WriteLine("phase folded");
                }
            }
        }
    }

    private static long StartFromCheckpointFile(string filterPath, Guid fileId)
    {
        try
        {
            return CheckpointFile.TryRead(CheckpointFile.PathFor(filterPath)) is { } checkpoint && checkpoint.FilterFileId == fileId ? checkpoint.Position : 0;
        }
        catch (InvalidCheckpointException)
        {
            return 0;
        }
    }
}
