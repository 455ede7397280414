using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// A resize shows itself to the host (<see cref="IFilterResizeStatus"/>, the server's <c>/filter</c> "resize"): without it,
/// <c>/filter</c> said only "ready" while the new file was being built.
/// </summary>
public sealed class ResizeStatusTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_resize_reports_both_sizes_and_its_progress_until_the_swap()
    {
        _log.AppendRange(0, 100);
        using (IHost first = TestHosts.Build(_dir, _log, _logs))
        {
            await first.StartAsync();
            Assert.Null(first.Services.GetRequiredService<IFilterResizeStatus>().Resize);
            await first.Filter().WhenReady;
            await first.StopAsync(); // the final checkpoint is at the log's end: the next start's catch-up reads nothing
        }

        // The gate holds every read: the serving file, checkpointed at the end, becomes ready without one, and the
        // new file's catch-up, which reads from 0, stays in progress until the test opens the gate.
        _log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using IHost host = TestHosts.Build(_dir, _log, _logs, null, ("StreamExistenceFilterSize", "2MiB"));
        var status = host.Services.GetRequiredService<IFilterResizeStatus>();
        await host.StartAsync();
        await host.Filter().WhenReady;
        await Poll.UntilAsync(() => status.Resize is not null, "the new file is being built");

        FilterResizeProgress resize = status.Resize!;
        Assert.Equal(1 << 20, resize.FromSizeBytes);
        Assert.Equal(2 << 20, resize.ToSizeBytes);
        Assert.Equal(0, resize.Percent);
        Assert.Null(resize.EstimatedRemaining);

        // The swap clears the status first and logs "resized" (event 6) after it: wait for the line, the later of the two.
        _log.Gate.SetResult();
        await Poll.UntilAsync(() => _logs.Messages(6).Any(m => m.EndsWith($"resized to {2 << 20} bytes", StringComparison.Ordinal)), "the resize swaps in");
        Assert.Null(status.Resize);
        await host.StopAsync();
    }
}
