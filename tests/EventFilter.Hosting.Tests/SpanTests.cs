using System.Diagnostics;
using System.Diagnostics.Metrics;
using EventFilter.Hosting.Telemetry;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging.Abstractions;

namespace EventFilter.Hosting.Tests;

/// <summary>The spans of docs/telemetry.md, "Traces": one per long operation, so that a trace shows where a slow start went.</summary>
public sealed class SpanTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();
    private readonly FilterSpanListener _spans;

    public SpanTests() => _spans = new FilterSpanListener(_dir);

    public void Dispose()
    {
        _spans.Dispose();
        _dir.Dispose();
    }

    [Fact]
    public void A_fold_span_ends_at_the_injected_clocks_now_and_lasts_the_folds_duration()
    {
        var time = new SteppedTime();
        using var meter = new Meter("SpanTests.Fold");
        var observer = new TelemetryObserver(NullLogger.Instance, new FilterFileMetrics(meter), time);

        observer.JournalFolded(_dir.FilterPath, new FlushResult(4096, TimeSpan.FromMilliseconds(250)));

        Activity fold = Assert.Single(_spans.Ended("eventfilter.fold"));
        Assert.Equal(time.GetUtcNow().UtcDateTime, fold.StartTimeUtc + fold.Duration);
        Assert.Equal(TimeSpan.FromMilliseconds(250), fold.Duration);
    }

    [Fact]
    public async Task A_start_over_a_log_is_one_trace_of_open_then_catch_up()
    {
        _log.AppendRange(0, 1_000);
        using IHost host = TestHosts.Build(_dir, _log, _logs);
        await host.StartAsync();

        Activity catchUp = await _spans.Single("eventfilter.catch_up");
        Activity open = Assert.Single(_spans.Ended("eventfilter.open"));
        Assert.Equal(_dir.FilterPath, open.GetTagItem("file.path"));
        Assert.Equal("missing", open.GetTagItem("eventfilter.rebuild.reason"));
        Assert.Equal(ActivityStatusCode.Unset, open.Status);

        // Catch-up starts when open has ended, as its child: one trace per start.
        Assert.Equal(open.TraceId, catchUp.TraceId);
        Assert.Equal(open.SpanId, catchUp.ParentSpanId);
        Assert.True(catchUp.StartTimeUtc >= open.StartTimeUtc + open.Duration);
        Assert.Equal(_dir.FilterPath, catchUp.GetTagItem("file.path"));
        Assert.Equal(0L, catchUp.GetTagItem("eventfilter.catch_up.start_position"));
        Assert.Equal(1_000L, catchUp.GetTagItem("eventfilter.catch_up.position"));
        Assert.Equal(1_000L, catchUp.GetTagItem("eventfilter.catch_up.records"));
        Assert.Equal(ActivityStatusCode.Unset, catchUp.Status);
        await host.StopAsync();
    }

    [Fact]
    public async Task A_checkpoint_tick_is_a_checkpoint_span_of_its_own_trace()
    {
        _log.AppendRange(0, 100);
        var time = new TimerCountingTime();
        using IHost host = TestHosts.Build(_dir, _log, _logs, time);
        ActivitySpanId hostSpan;
        using (Activity hostStart = new Activity("the host's own start").Start())
        {
            hostSpan = hostStart.SpanId;
            await host.StartAsync(); // a span current at start is open's parent, but not the timer's checkpoints'
        }

        await _spans.Single("eventfilter.catch_up");
        Assert.Equal(hostSpan, Assert.Single(_spans.Ended("eventfilter.open")).ParentSpanId);
        await Poll.UntilAsync(() => host.Filter().CheckpointPosition == 100, "catch-up's own final checkpoint");
        Assert.Empty(_spans.Ended("eventfilter.checkpoint")); // catch-up's checkpoints are inside the core, not spanned
        _log.AppendRange(100, 20, host.Filter());

        Assert.Equal(1, time.Advance(TimeSpan.FromSeconds(30)));
        Activity checkpoint = await _spans.Single("eventfilter.checkpoint");
        Assert.Equal(_dir.FilterPath, checkpoint.GetTagItem("file.path"));
        Assert.Equal(120L, checkpoint.GetTagItem("eventfilter.checkpoint.position"));
        Assert.Equal(ActivityStatusCode.Unset, checkpoint.Status);
        Assert.Equal(default, checkpoint.ParentSpanId);
        await host.StopAsync();
    }

    [Fact]
    public async Task A_filter_that_cannot_be_opened_ends_the_open_span_with_status_error()
    {
        Directory.CreateDirectory(_dir.FilterPath); // a directory where the file should be
        using IHost host = TestHosts.Build(_dir, _log, _logs);

        Exception error = await Assert.ThrowsAnyAsync<Exception>(() => host.StartAsync());
        Activity open = Assert.Single(_spans.Ended("eventfilter.open"));
        Assert.Equal(ActivityStatusCode.Error, open.Status);
        Assert.Equal(error.GetType().FullName, open.GetTagItem("error.type"));
        Assert.Empty(_spans.Ended("eventfilter.catch_up"));
    }

    [Fact]
    public async Task A_resize_is_a_span_from_open_to_the_swap_with_both_sizes_and_the_new_files_fold()
    {
        _log.AppendRange(0, 100);
        using (IHost first = TestHosts.Build(_dir, _log, _logs))
        {
            await first.StartAsync();
            await first.Filter().WhenReady;
            await first.StopAsync();
        }

        using IHost host = TestHosts.Build(_dir, _log, _logs, null, ("StreamExistenceFilterSize", "2MiB"));
        await host.StartAsync();
        Activity resize = await _spans.Single("eventfilter.resize");
        Assert.Equal(_dir.FilterPath, resize.GetTagItem("file.path"));
        Assert.Equal(1L << 20, resize.GetTagItem("eventfilter.resize.from_size"));
        Assert.Equal(2L << 20, resize.GetTagItem("eventfilter.resize.to_size"));
        Assert.Equal(ActivityStatusCode.Unset, resize.Status);

        // Found by the second start's open, so its child; it ends at the swap, after that start's catch-up.
        Activity open = _spans.Ended("eventfilter.open")[^1];
        Assert.Equal(open.SpanId, resize.ParentSpanId);
        Assert.True(resize.StartTimeUtc + resize.Duration >= _spans.Ended("eventfilter.catch_up")[^1].StartTimeUtc);

        // The swap folds the new file's journal first: a fold span, reported when done, whose start is its duration back.
        Activity fold = Assert.Single(_spans.Ended("eventfilter.fold"), f => (string?)f.GetTagItem("file.path") == _dir.FilterPath + ".resize");
        Assert.IsType<long>(fold.GetTagItem("eventfilter.fold.bytes"));
        Assert.True(fold.StartTimeUtc + fold.Duration <= resize.StartTimeUtc + resize.Duration);
        await host.StopAsync();
    }

    [Fact]
    public async Task A_requested_rebuild_is_a_span_with_its_reason()
    {
        _log.AppendRange(0, 100);
        using IHost host = TestHosts.Build(_dir, _log, _logs);
        await host.StartAsync();
        await host.Filter().WhenReady;

        Assert.True(host.Services.GetRequiredService<IFilterRebuildControl>().TryStartRebuild(out string? refusal), refusal);
        Activity rebuild = await _spans.Single("eventfilter.rebuild");
        Assert.Equal(_dir.FilterPath, rebuild.GetTagItem("file.path"));
        Assert.Equal("requested", rebuild.GetTagItem("eventfilter.rebuild.reason"));
        Assert.Equal(ActivityStatusCode.Unset, rebuild.Status);
        await host.StopAsync();
    }
}
