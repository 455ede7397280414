using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// The layer observer's loggers, which drop the hosting package's CheckpointIgnored line (event 7) while
/// <see cref="Quiet"/>: during a start the observer counts those and logs one line instead (LayerObserver).
/// </summary>
internal sealed class StartQuietLogs(ILoggerFactory inner) : ILoggerFactory
{
    private const int CheckpointIgnored = 7;

    public volatile bool Quiet;

    public ILogger CreateLogger(string categoryName) => new QuietLogger(inner.CreateLogger(categoryName), this);

    public void AddProvider(ILoggerProvider provider) => inner.AddProvider(provider);

    public void Dispose()
    {
        // The host owns the inner factory.
    }

    private sealed class QuietLogger(ILogger inner, StartQuietLogs owner) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => inner.BeginScope(state);

        public bool IsEnabled(LogLevel logLevel) => inner.IsEnabled(logLevel);

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (!(owner.Quiet && eventId.Id == CheckpointIgnored))
            {
                inner.Log(logLevel, eventId, state, exception, formatter);
            }
        }
    }
}
