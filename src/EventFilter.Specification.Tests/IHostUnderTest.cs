namespace EventFilter.Specification;

/// <summary>
/// A started host, as <see cref="HostContractSpecification"/> drives it: its log, its append path and its stop.
/// </summary>
public interface IHostUnderTest : IAsyncDisposable
{
    /// <summary>The host's log, as its filter reads it (the <see cref="IStreamNameLog"/> the host registers).</summary>
    IStreamNameLog Log { get; }

    /// <summary>
    /// Appends one record to <paramref name="streamName"/> through the host's own append path, which adds it to the
    /// filter the host was started with, and completes once the append is acknowledged: durable. Called from several
    /// threads at once.
    /// </summary>
    Task AppendAsync(string streamName, CancellationToken cancellationToken);

    /// <summary>
    /// Cuts the running host's log back to <paramref name="position"/> (a record boundary), as a host does that drops a
    /// tail it could not make durable, telling the filter as the host contract asks. Returns false, changing nothing,
    /// when the host never cuts a running log: most hosts cut only while recovering at start, which
    /// <see cref="HostContractSpecification.CutLogAsync"/> covers.
    /// </summary>
    ValueTask<bool> TryCutLogAsync(long position) => ValueTask.FromResult(false);
}
