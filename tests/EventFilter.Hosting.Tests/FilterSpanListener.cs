using System.Collections.Concurrent;
using System.Diagnostics;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// The spans of the <c>EventFilter</c> activity source that ended for files under one test's directory: the listener is
/// process-wide and other tests' hosts run meanwhile, so each span is kept only if its <c>file.path</c> is this test's.
/// </summary>
public sealed class FilterSpanListener : IDisposable
{
    private readonly ActivityListener _listener;
    private readonly ConcurrentQueue<Activity> _ended = new();

    public FilterSpanListener(TempDirectory dir)
    {
        _listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == "EventFilter",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = span =>
            {
                if (span.GetTagItem("file.path") is string path && path.StartsWith(dir.Path, StringComparison.Ordinal))
                {
                    _ended.Enqueue(span);
                }
            },
        };
        ActivitySource.AddActivityListener(_listener);
    }

    /// <summary>The spans of that name ended so far, in the order they ended.</summary>
    public Activity[] Ended(string name) => _ended.Where(s => s.OperationName == name).ToArray();

    /// <summary>Waits until a span of that name has ended (the observer ends some after the state they report is visible).</summary>
    public async Task<Activity> Single(string name)
    {
        await Poll.UntilAsync(() => Ended(name).Length > 0, $"a span {name} ends");
        return Assert.Single(Ended(name));
    }

    public void Dispose() => _listener.Dispose();
}
