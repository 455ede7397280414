using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting.Tests;

/// <summary>Keeps every line logged, so tests can check what an operator would read.</summary>
public sealed class LogCapture : ILoggerProvider
{
    public ConcurrentQueue<(string Category, LogLevel Level, EventId Id, string Message)> Lines { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public IEnumerable<string> Messages(int eventId) => Lines.Where(l => l.Id.Id == eventId && l.Category == "EventFilter").Select(l => l.Message);

    public void Dispose()
    {
    }

    private sealed class Logger(LogCapture owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            owner.Lines.Enqueue((category, logLevel, eventId, formatter(state, exception)));
    }
}
