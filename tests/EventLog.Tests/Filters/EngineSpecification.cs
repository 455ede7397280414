using EventFilter;
using EventFilter.Specification;
using EventLog.Segments;
using EventLog.Streams;

namespace EventLog.Tests.Filters;

/// <summary>
/// The host-contract specification kit (EventFilter.Specification.Tests) run against the sample engine: its group
/// commit adds each name before the fsync, with the end of the append's last record.
/// </summary>
public sealed class EngineSpecification : HostContractSpecification
{
    protected override async Task<IHostUnderTest> StartHostAsync(string directory, IStreamExistenceFilter filter)
    {
        EventLogEngine engine = await EventLogEngine.OpenAsync(Engines.Options(directory));
        engine.Start(filter);
        return new EngineUnderTest(engine);
    }

    protected override Task CutLogAsync(string directory, long position)
    {
        // What a torn tail leaves: the last segment ends at the cut, and any segment after it is gone.
        string log = Path.Combine(directory, "log");
        foreach (string path in Directory.GetFiles(log))
        {
            if (SegmentFile.TryParseStart(Path.GetFileName(path)) is not { } start)
            {
                continue;
            }

            if (start >= position && start > 0)
            {
                File.Delete(path);
                continue;
            }

            using var file = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
            if (start + file.Length > position)
            {
                file.SetLength(position - start);
            }
        }

        return Task.CompletedTask;
    }

    private sealed class EngineUnderTest(EventLogEngine engine) : IHostUnderTest
    {
        public IStreamNameLog Log => engine;

        public Task AppendAsync(string streamName, CancellationToken cancellationToken) =>
            engine.AppendAsync(streamName, ExpectedVersion.Any, Engines.Event(), cancellationToken);

        public ValueTask DisposeAsync() => engine.DisposeAsync();
    }
}
