using System.Collections.Concurrent;
using EventFilter.Daemon.Filters;
using Microsoft.Extensions.Logging.Abstractions;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The daemon's locks (docs/daemon-design.md, "Locks") taken together by every path that takes them: creates, adds, drops
/// (DEL), restores (BF.LOADCHUNK), dumps, checkpoints and ticks, each on threads of its own over one store. A lock
/// taken against the written order deadlocks here (the wait is bounded, so a deadlock fails the test instead of
/// hanging it), and every add acknowledged to a filter that is never dropped answers "maybe" afterwards, before and
/// after a clean stop and start.
/// </summary>
public sealed class LockOrderTests
{
    private const int Rounds = 150;
    private static readonly string[] Kept = ["kept-0", "kept-1", "kept-2"];
    private static readonly string[] Churned = ["churn-0", "churn-1"];

    [Theory]
    [InlineData(LogSync.Periodic)]
    [InlineData(LogSync.Always)]
    internal void Creates_adds_drops_restores_and_ticks_together_neither_deadlock_nor_lose_an_acknowledged_add(LogSync logSync)
    {
        using var directory = new TempDirectory();
        var store = new FilterStore(directory.Path, logSync, new FilterObserver(), NullLogger.Instance, TimeProvider.System);
        store.Open();
        List<(long Iterator, byte[] Data)> dump;
        using (var source = new InProcessCommands(store, directory.Path, logSync))
        {
            foreach (string key in Kept)
            {
                // Small layers, so that the adds grow each chain; with --log-sync periodic the first 50 items are held.
                Assert.Equal("OK", source.Call("BF.RESERVE", key, "0.01", "50", "EXPANSION", "2"));
            }

            Assert.Equal("OK", source.Call("BF.RESERVE", "source", "0.01", "100", "EXPANSION", "2"));
            foreach (object[] madd in DumpLoop.Batches("BF.MADD", "source", 0, 1000, batch: 100))
            {
                source.Call(madd);
            }

            dump = DumpLoop.Dump(source.Call, "source");
        }

        // Per kept key, the items an add answered for (1 or 0: either way the item is in the filter from then on).
        var acknowledged = Kept.ToDictionary(key => key, _ => new List<string>());
        var failures = new ConcurrentQueue<Exception>();
        int running = Kept.Length + 2;
        Thread Worker(Action<Func<object[], object?>, int> round, bool untilOthersEnd = false) =>
            Connection(store, directory.Path, logSync, round, failures, untilOthersEnd ? () => Volatile.Read(ref running) > 0 : null, () => Interlocked.Decrement(ref running));
        Thread[] workers =
        [
            .. Kept.Select((key, worker) => Worker((call, round) =>
            {
                // And a churned key too, which is dropped and made again meanwhile.
                string item = $"item-{worker}-{round}";
                object? answer = call(["BF.ADD", key, item]);
                Assert.True(answer is 1L or 0L, $"BF.ADD {key} answered {answer}");
                lock (acknowledged)
                {
                    acknowledged[key].Add(item);
                }

                call(["BF.ADD", Churned[round % Churned.Length], item]);
            })),
            Worker((call, round) =>
            {
                string key = Churned[round % Churned.Length];
                call(["BF.RESERVE", key, "0.01", "50"]);
                call(["BF.MADD", key, "x", "y", "z"]);
                call(["DEL", key]);
            }),
            Worker((call, round) =>
            {
                // Restores race DELs of the same key: refusals are expected, hangs are not.
                foreach ((long iterator, byte[] data) in dump)
                {
                    call(["BF.LOADCHUNK", "restored", iterator, data]);
                }

                if (round % 2 == 0)
                {
                    call(["DEL", "restored"]);
                }

                call(["BF.SCANDUMP", Kept[round % Kept.Length], 0]);
            }),
            Worker(
                (call, _) =>
                {
                    call(["DEL", "restored"]);
                    Tick(store);
                },
                untilOthersEnd: true),
        ];

        foreach (Thread worker in workers)
        {
            worker.Start();
        }

        Poll.Until(() => workers.All(worker => !worker.IsAlive), "every worker to finish (a deadlock never does)");
        Assert.True(failures.IsEmpty, string.Join(Environment.NewLine, failures));

        AssertEveryAcknowledgedAddAnswers(store, directory.Path, logSync, acknowledged);
        store.Dispose();
        using var reopened = new InProcessCommands(directory.Path, logSync);
        AssertEveryAcknowledgedAddAnswers(reopened.Store, directory.Path, logSync, acknowledged);
    }

    /// <summary>What the daemon's sync tick does (Server/Checkpointer.cs): every filter's checkpoint, then the store's tick.</summary>
    private static void Tick(FilterStore store)
    {
        foreach (NamedFilter filter in store.Snapshot())
        {
            try
            {
                filter.Checkpoint(final: false);
            }
            catch (ObjectDisposedException)
            {
                // Dropped meanwhile, as the daemon's tick allows.
            }
        }

        store.SyncDirectories();
    }

    private static void AssertEveryAcknowledgedAddAnswers(FilterStore store, string directory, LogSync logSync, Dictionary<string, List<string>> acknowledged)
    {
        using var reader = new InProcessCommands(store, directory, logSync);
        foreach ((string key, List<string> items) in acknowledged)
        {
            Assert.NotEmpty(items);
            var answers = Assert.IsType<object?[]>(reader.Call(["BF.MEXISTS", key, .. items]));
            Assert.All(answers, answer => Assert.Equal(1L, answer));
        }
    }

    /// <summary>
    /// A background thread with a connection of its own, running <see cref="Rounds"/> rounds, or while
    /// <paramref name="more"/> says so; a failure goes to <paramref name="failures"/>, and <paramref name="ended"/> is told.
    /// </summary>
    private static Thread Connection(FilterStore store, string directory, LogSync logSync, Action<Func<object[], object?>, int> round,
        ConcurrentQueue<Exception> failures, Func<bool>? more, Action ended) =>
        new(() =>
        {
            try
            {
                using var connection = new InProcessCommands(store, directory, logSync);
                for (int i = 0; more is null ? i < Rounds : i == 0 || more(); i++)
                {
                    round(connection.Call, i);
                }
            }
            catch (Exception failure)
            {
                failures.Enqueue(failure);
            }
            finally
            {
                ended();
            }
        })
        {
            IsBackground = true, // a deadlocked worker does not keep the test run alive
        };
}
