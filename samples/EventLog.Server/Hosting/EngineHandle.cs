using EventFilter;

namespace EventLog.Server.Hosting;

/// <summary>
/// The event log engine, shared by the hosted services and the endpoints, and the filter's view of the log. DI builds
/// the filter's hosted service (which needs an <see cref="IStreamNameLog"/>) before any hosted service starts, but the
/// engine exists only once <see cref="EngineOpener"/> has opened it: this handle stands in for it until then.
/// </summary>
internal sealed class EngineHandle : IStreamNameLog, IAsyncDisposable
{
    private EventLogEngine? _engine;
    private volatile bool _acceptingAppends;

    /// <summary>The open engine; throws before <see cref="EngineOpener"/> has opened it.</summary>
    public EventLogEngine Engine => Volatile.Read(ref _engine) ?? throw new InvalidOperationException("The event log engine is not open yet.");

    /// <summary>True between <c>engine.Start(filter)</c> and <c>engine.StopAsync()</c>.</summary>
    public bool AcceptingAppends
    {
        get => _acceptingAppends;
        set => _acceptingAppends = value;
    }

    /// <summary>True once <see cref="EngineOpener"/> has opened the engine.</summary>
    public bool IsOpen => Volatile.Read(ref _engine) is not null;

    /// <inheritdoc/>
    public long EndPosition => Engine.EndPosition;

    /// <inheritdoc/>
    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken) =>
        Engine.ReadAsync(fromPosition, batch, cancellationToken);

    /// <summary>Publishes the engine once it is open.</summary>
    public void Opened(EventLogEngine engine)
    {
        if (Interlocked.CompareExchange(ref _engine, engine, null) is not null)
        {
            throw new InvalidOperationException("The event log engine was opened twice.");
        }
    }

    /// <summary>Closes the engine, which releases its directory lock (idempotent): on stop, or from DI disposal when the host failed to start.</summary>
    public async ValueTask DisposeAsync()
    {
        _acceptingAppends = false;
        if (Volatile.Read(ref _engine) is { } engine)
        {
            await engine.DisposeAsync().ConfigureAwait(false);
        }
    }
}
