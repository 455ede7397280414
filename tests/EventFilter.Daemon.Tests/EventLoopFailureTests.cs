using EventFilter.Daemon.Server;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Testing;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// An exception that escapes an event loop's pass is logged and ends the process (Server/EventLoop.cs): before, it
/// escaped the loop's thread unlogged. The process is not ended here: the loop takes what ends it as a parameter.
/// </summary>
public sealed class EventLoopFailureTests
{
    [Fact]
    public async Task An_exception_escaping_a_pass_is_logged_as_critical_and_fails_fast()
    {
        var logger = new FakeLogger();
        var failed = new TaskCompletionSource<(string Message, Exception Error)>(TaskCreationOptions.RunContinuationsAsynchronously);
        using (var loop = new EventLoop(3, logger, (message, error) => failed.TrySetResult((message, error))))
        {
            // A bug on the loop's own path: the posted "connection" is resumed on the loop's thread and throws there.
            loop.Post(null!);
            (string message, Exception error) = await failed.Task.WaitAsync(Poll.Bound);

            Assert.IsType<NullReferenceException>(error);
            Assert.StartsWith("eventfilterd: event loop 3 failed: ", message);
            FakeLogRecord record = Assert.Single(logger.Collector.GetSnapshot());
            Assert.Equal((LogLevel.Critical, 134, "EventLoopFailed"), (record.Level, record.Id.Id, record.Id.Name));
            Assert.Same(error, record.Exception);
        }
    }
}
