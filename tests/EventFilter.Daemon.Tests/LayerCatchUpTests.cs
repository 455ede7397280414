using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;
using Microsoft.Extensions.Logging.Abstractions;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// A start after a crash catches each layer up from the digest log and reports it to the observer (through
/// EventFilter.Hosting's, the catch-up log lines and metrics): one completion per layer with that layer's records.
/// </summary>
public sealed class LayerCatchUpTests
{
    [Fact]
    public void A_start_after_a_crash_reports_each_layers_catch_up_with_its_records()
    {
        using var directory = new TempDirectory();
        string crashed = directory.Path + ".crashed";
        int added;
        try
        {
            using (var store = new FilterStore(directory.Path, LogSync.Always, new FilterObserver(), NullLogger.Instance, TimeProvider.System))
            {
                store.Open();
                NamedFilter filter = store.Create("users"u8, new FilterParameters(1000, 0.01, 2, NonScaling: false))!;
                ulong[] digests = [.. Enumerable.Range(1, 1500).Select(i => (ulong)i * 0x9E3779B97F4A7C15UL)];
                bool[] answers = new bool[digests.Length];
                Assert.Equal(AddOutcome.Done, filter.Add(digests, answers, out _));
                filter.WriteLog();
                added = answers.Count(a => a);

                // With --log-sync always the files are made at the create, and with no tick and no clean stop the
                // layers have no checkpoint, so the next start catches both up. (With periodic, a new filter's first
                // items are held, and layer 0 is checkpointed when the files are made from them.)
                CrashCopy.Make(directory.Path, crashed);
            }

            var observer = new CatchUpRecorder();
            using var reopened = new FilterStore(crashed, LogSync.Periodic, observer, NullLogger.Instance, TimeProvider.System);
            reopened.Open();

            Assert.Equal([1000L, added - 1000L], observer.Completed.Select(progress => progress.Records));
            Assert.All(observer.Completed, progress => Assert.Equal(progress.EndPosition, progress.Position));
            Assert.Equal(["layer-000.filter", "layer-001.filter"], observer.Completed.Select(progress => Path.GetFileName(progress.Path)));
        }
        finally
        {
            if (Directory.Exists(crashed))
            {
                Directory.Delete(crashed, recursive: true);
            }
        }
    }

    private sealed class CatchUpRecorder : FilterObserver
    {
        public List<CatchUpProgress> Completed { get; } = [];

        public override void CatchUpCompleted(CatchUpProgress progress) => Completed.Add(progress);
    }
}
