using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// StopAsync when the host's shutdown timeout fires, or has fired before it is called: it never throws for the token,
/// takes the final checkpoint, logs what it could not finish (event 17), and the next start catches up.
/// </summary>
public sealed class StopTimeoutTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();
    private readonly TimerCountingTime _time = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Stop_called_past_the_timeout_still_stops_cleanly_when_the_work_ends_within_the_grace()
    {
        using (IHost host = TestHosts.Build(_dir, _log, _logs, _time))
        {
            await host.StartAsync();
            await host.Filter().WhenReady;
            _log.AppendRange(0, 100, host.Filter());

            // Regression: a token already cancelled (Kestrel used the whole shutdown timeout) made StopAsync
            // throw TaskCanceledException, with no final checkpoint. The clock never moves, so the grace cannot run out.
            await Hosted(host).StopAsync(new CancellationToken(canceled: true));

            Assert.Contains(_logs.Messages(16), m => m.EndsWith("final checkpoint at 100", StringComparison.Ordinal));
            Assert.Empty(_logs.Messages(17));
            Assert.True(Hosted(host).Closed.IsCompleted);
        }

        await AssertNextStartFindsEveryNameAsync(100);
    }

    [Fact]
    public async Task Stop_called_past_the_timeout_returns_after_the_grace_when_catch_up_hangs_and_the_next_start_catches_up()
    {
        _log.AppendRange(0, 100);
        var hanging = new UncancellableReads(_log);
        using (IHost host = BuildHost(hanging))
        {
            await host.StartAsync();
            await hanging.Reading.Task;

            Task stop = Hosted(host).StopAsync(new CancellationToken(canceled: true));
            Assert.False(stop.IsCompleted); // the grace's timer is on the test's clock
            _time.Advance(HostedStreamExistenceFilter.StopGrace);
            await stop;

            string line = Assert.Single(_logs.Messages(17));
            Assert.Matches(@"\(catch-up(, a checkpoint tick)? still running\); checkpoint at 0;", line);
            Assert.Empty(_logs.Messages(16));

            // The file stays mapped under the read; once it returns, the work ends and the file is closed.
            Assert.False(Hosted(host).Closed.IsCompleted);
            hanging.Release();
            await Hosted(host).Closed;
        }

        await AssertNextStartFindsEveryNameAsync(100);
    }

    [Fact]
    public async Task Stop_whose_token_fires_while_catch_up_hangs_returns_without_throwing()
    {
        _log.AppendRange(0, 100);
        var hanging = new UncancellableReads(_log);
        using (IHost host = BuildHost(hanging))
        {
            await host.StartAsync();
            await hanging.Reading.Task;

            using var timeout = new CancellationTokenSource();
            Task stop = Hosted(host).StopAsync(timeout.Token);
            Assert.False(stop.IsCompleted);
            await timeout.CancelAsync();
            await stop;

            // The checkpoint thread, cancelled a moment before the token fired, may or may not have ended by then.
            Assert.Matches(@"\(catch-up(, a checkpoint tick)? still running\)", Assert.Single(_logs.Messages(17)));
            hanging.Release();
            await Hosted(host).Closed;
        }

        await AssertNextStartFindsEveryNameAsync(100);
    }

    private static HostedStreamExistenceFilter Hosted(IHost host) => host.Services.GetRequiredService<HostedStreamExistenceFilter>();

    private IHost BuildHost(IStreamNameLog log)
    {
        HostApplicationBuilder builder = TestHosts.Builder(_dir, _log, _logs, time: _time);
        builder.Services.AddSingleton(log); // registered last, so it is the one the filter gets
        builder.Services.AddStreamExistenceFilter(o => (o.DataDirectory, o.StreamExistenceFilterSize) = (_dir.Data, "1MiB"));
        return builder.Build();
    }

    private async Task AssertNextStartFindsEveryNameAsync(int count)
    {
        using IHost next = TestHosts.Build(_dir, _log, new FakeLogCollector(), _time);
        await next.StartAsync();
        await next.Filter().WhenReady;
        Assert.All(Enumerable.Range(0, count), i => Assert.True(next.Filter().MightExist(InMemoryStreamLog.Name(i))));
        await next.StopAsync();
    }

    /// <summary>A log whose reads wait at a gate and ignore cancellation, as a read stuck on a slow disk would.</summary>
    private sealed class UncancellableReads(InMemoryStreamLog log) : IStreamNameLog
    {
        private readonly TaskCompletionSource _gate = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>Completes when a read is waiting at the gate.</summary>
        public TaskCompletionSource Reading { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public long EndPosition => log.EndPosition;

        public void Release() => _gate.TrySetResult();

        public async ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
        {
            Reading.TrySetResult();
            await _gate.Task.ConfigureAwait(false);
            await log.ReadAsync(fromPosition, batch, cancellationToken).ConfigureAwait(false);
        }
    }
}
