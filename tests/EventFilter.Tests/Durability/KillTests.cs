using EventFilter.TestHost;

namespace EventFilter.Tests.Durability;

public sealed class KillTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_writer_killed_with_SIGKILL_loses_no_logged_stream()
    {
        const long size = 1 << 20;
        var random = new Random(2026);
        int logged = 0;
        for (int round = 0; round < 3; round++)
        {
            using (var child = new ChildProcess(_dir.Path, size.ToString(System.Globalization.CultureInfo.InvariantCulture), round.ToString(System.Globalization.CultureInfo.InvariantCulture)))
            {
                await child.WaitForAppendsAsync(500 + random.Next(3_000));
                child.Kill();
            }

            using var log = new FileStreamNameLog(Path.Combine(_dir.Path, "log.bin"));
            List<string> names = log.ReadAllNames();
            using var filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = size }, log);
            filter.Open();
            Assert.InRange(filter.CheckpointPosition!.Value, 0, log.EndPosition); // never ahead of the durable log
            await filter.CatchUpAsync(CancellationToken.None);
            Assert.DoesNotContain(names, n => !filter.MightExist(n));
            Assert.True(names.Count > logged, $"round {round} logged nothing new ({names.Count} names)");
            logged = names.Count;
        }
    }
}
