using EventFilter.Tests.Durability;
using Xunit.Abstractions;

namespace EventFilter.Tests.Reliability;

/// <summary>Readers, writers, the flusher and checkpoints together, for a bounded time: 10 s in CI, minutes in the full run.</summary>
public sealed class ConcurrencyStressTests(ITestOutputHelper output) : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Readers_writers_and_checkpoints_together_give_no_false_negative_and_valid_lines()
    {
        TimeSpan duration = ReliabilityScale.Pick(TimeSpan.FromSeconds(10), TimeSpan.FromMinutes(5));
        var options = new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = 64 * 4096 };
        var log = new InMemoryStreamLog();
        var appendGate = new object();
        int appended = 0, falseNegatives = 0;
        long lookups = 0, checkpoints = 0;
        using var stop = new CancellationTokenSource(duration);

        // The duration is a budget, not the test: the threads also go on until each kind of work has run enough to
        // mean something, so a starved machine makes the test slower, never a failure.
        bool Running() => !stop.IsCancellationRequested
            || Volatile.Read(ref checkpoints) < 2 || Volatile.Read(ref appended) < 1_000 || Interlocked.Read(ref lookups) < 1_000;

        using (StreamExistenceFilter filter = await FilterHarness.OpenReadyAsync(options, log))
        {
            var threads = new List<Thread>();
            for (int w = 0; w < 2; w++)
            {
                threads.Add(Start(() =>
                {
                    while (Running())
                    {
                        lock (appendGate)
                        {
                            // Added once durable, in log order: a checkpoint claims no more than the adds reached.
                            filter.Add(Names.Added(appended), log.Append(Names.Added(appended)));
                            Volatile.Write(ref appended, appended + 1);
                        }
                    }
                }));
            }

            for (int r = 0; r < 3; r++)
            {
                int seed = r;
                threads.Add(Start(() =>
                {
                    var random = new Random(seed);
                    while (Running())
                    {
                        int upTo = Volatile.Read(ref appended);
                        if (upTo > 0 && !filter.MightExist(Names.Added(random.Next(upTo))))
                        {
                            Interlocked.Increment(ref falseNegatives);
                        }

                        Interlocked.Increment(ref lookups);
                    }
                }));
            }

            threads.Add(Start(() =>
            {
                while (Running())
                {
                    filter.Checkpoint(Volatile.Read(ref appended));
                    Interlocked.Increment(ref checkpoints);
                }
            }));

            foreach (Thread thread in threads)
            {
                Assert.True(thread.Join(duration + TimeSpan.FromMinutes(2)), "a stress thread did not stop: deadlock?");
            }

            filter.Checkpoint(appended);
        }

        output.WriteLine($"{duration.TotalSeconds} s: {appended:N0} appends, {lookups:N0} lookups, {checkpoints:N0} checkpoints");
        Assert.Equal(0, falseNegatives);
        Assert.True(checkpoints > 1 && appended > 1_000 && lookups > 1_000);

        using FilterFile quiescent = FilterFile.OpenExisting(options.FilterPath);
        Assert.Equal(0, quiescent.Verify(repair: false).MismatchedLines);
        using StreamExistenceFilter reopened = await FilterHarness.OpenReadyAsync(options, log);
        Assert.Equal(0, FilterHarness.FalseNegatives(reopened, appended));
    }

    private static Thread Start(Action work)
    {
        var thread = new Thread(() => work()) { IsBackground = true };
        thread.Start();
        return thread;
    }
}
