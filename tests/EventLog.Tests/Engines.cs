using System.Text;
using EventLog.Streams;

namespace EventLog.Tests;

/// <summary>Opening engines with test-sized settings, and making events.</summary>
internal static class Engines
{
    /// <summary>Small files, no filter of its own unless asked, checkpoints on demand only.</summary>
    public static EventLogOptions Options(string directory) => new()
    {
        DataDirectory = directory,
        StreamExistenceFilterSizeBytes = 0,
        FilterCheckpointInterval = TimeSpan.Zero,
        MemTableEntries = 10_000,
    };

    public static async Task<EventLogEngine> StartAsync(EventLogOptions options)
    {
        EventLogEngine engine = await EventLogEngine.OpenAsync(options);
        engine.Start();
        return engine;
    }

    public static EventData Event(string type = "Happened", string data = "{}", string metadata = "") =>
        new(type, Encoding.UTF8.GetBytes(data), Encoding.UTF8.GetBytes(metadata));

    public static string Text(ReadOnlyMemory<byte> bytes) => Encoding.UTF8.GetString(bytes.Span);

    /// <summary>Appends one event to each of <paramref name="streams"/> new streams, <paramref name="parallel"/> at a time (so commits group).</summary>
    public static async Task AppendNewStreamsAsync(EventLogEngine engine, string prefix, int streams, int parallel = 256)
    {
        using var gate = new SemaphoreSlim(parallel);
        var tasks = new List<Task>(streams);
        for (int i = 0; i < streams; i++)
        {
            await gate.WaitAsync();
            string name = $"{prefix}-{i}";
            tasks.Add(Task.Run(async () =>
            {
                try
                {
                    await engine.AppendAsync(name, ExpectedVersion.NoStream, Event(data: name));
                }
                finally
                {
                    gate.Release();
                }
            }));
        }

        await Task.WhenAll(tasks);
    }

    /// <summary>Waits until the background index work has written every sealed memtable.</summary>
    public static Task WaitForIndexFilesAsync(EventLogEngine engine, int atLeast) => Poll.UntilAsync(
        () => engine.Statistics.IndexFiles >= atLeast && engine.Statistics.MemTableEntries <= engine.Options.MemTableEntries * 2L,
        () => $"{atLeast} index files (there are {engine.Statistics.IndexFiles})");
}
