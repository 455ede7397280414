using EventFilter;
using EventFilter.Specification;

namespace FileLogWorker.Tests;

/// <summary>
/// The host-contract specification kit run against the hosting guide's worker (docs/hosting-guide.md): it adds each
/// name before its flush, with the record's end, and implements nothing beyond the guide.
/// </summary>
public sealed class FileLogWorkerSpecification : HostContractSpecification
{
    protected override async Task<IHostUnderTest> StartHostAsync(string directory, IStreamExistenceFilter filter)
    {
        var log = new FileStreamLog(LogPath(directory));
        var worker = new AppendWorker(log, filter);
        await worker.StartAsync(CancellationToken.None);
        return new WorkerUnderTest(log, worker);
    }

    protected override Task CutLogAsync(string directory, long position)
    {
        using (var file = new FileStream(LogPath(directory), FileMode.Open, FileAccess.Write))
        {
            file.SetLength(position);
        }

        return Task.CompletedTask;
    }

    private static string LogPath(string directory) => Path.Combine(directory, "streams.log");

    private sealed class WorkerUnderTest(FileStreamLog log, AppendWorker worker) : IHostUnderTest
    {
        public IStreamNameLog Log => log;

        public Task AppendAsync(string streamName, CancellationToken cancellationToken) => worker.AppendAsync(streamName);

        public async ValueTask DisposeAsync()
        {
            await worker.StopAsync(CancellationToken.None);
            worker.Dispose();
            log.Dispose();
        }
    }
}
