using System.Diagnostics;

namespace EventFilter.Hosting.Telemetry;

/// <summary>
/// The spans of the <c>EventFilter</c> activity source, one per long operation (docs/telemetry.md, "Traces"). With no
/// listener <see cref="ActivitySource.StartActivity(string, ActivityKind)"/> returns null and each call here does nothing
/// more; adds and lookups never come here. Catch-up, resize and online rebuild end in callbacks of the observer, on
/// another thread than the one that started them, so this keeps them until then; each is ended once.
/// </summary>
internal sealed class FilterSpans
{
    public const string SourceName = "EventFilter";

    public const string Open = "eventfilter.open";

    public const string CatchUp = "eventfilter.catch_up";

    public const string Checkpoint = "eventfilter.checkpoint";

    public const string Fold = "eventfilter.fold";

    public const string Resize = "eventfilter.resize";

    public const string Rebuild = "eventfilter.rebuild";

    /// <summary>OpenTelemetry's attribute for a file's path; every span carries the filter file's.</summary>
    public const string PathTag = "file.path";

    public static readonly ActivitySource Source = new(SourceName);

    private Activity? _catchUp;
    private Activity? _resize;
    private Activity? _rebuild;

    /// <summary>A span of work that runs inside this call: it becomes <see cref="Activity.Current"/>; dispose it to end it.</summary>
    public static Activity? Start(string name, string path, ActivityContext parent = default) =>
        Source.StartActivity(name, ActivityKind.Internal, parent)?.SetTag(PathTag, path);

    /// <summary>A finished fold, reported only when done (<paramref name="now"/>): the span starts its duration before.</summary>
    public static void Folded(string path, FlushResult fold, DateTimeOffset now)
    {
        if (Source.HasListeners())
        {
            using Activity? span = Source.StartActivity(Fold, ActivityKind.Internal, parentContext: default, startTime: now - fold.Duration);
            span?.SetTag(PathTag, path).SetTag("eventfilter.fold.bytes", fold.BytesFlushed).SetEndTime(now.UtcDateTime);
        }
    }

    /// <summary>Status Error, <c>error.type</c> the exception's full type name (as on <c>eventfilter.errors</c>), and OpenTelemetry's exception event.</summary>
    public static void Fail(Activity? span, Exception error)
    {
        span?.SetStatus(ActivityStatusCode.Error, error.Message).SetTag("error.type", error.GetType().FullName).AddException(error);
    }

    /// <summary>From the hosted service's call of CatchUpAsync to CatchUpCompleted (ready), under <paramref name="open"/>.</summary>
    public void StartCatchUp(string path, ActivityContext open) => Volatile.Write(ref _catchUp, Detached(CatchUp, path, open));

    public void CatchUpCompleted(CatchUpProgress done) => Interlocked.Exchange(ref _catchUp, null)?
        .SetTag("eventfilter.catch_up.start_position", done.StartPosition).SetTag("eventfilter.catch_up.position", done.Position)
        .SetTag("eventfilter.catch_up.records", done.Records).Stop();

    public void ResizeStarted(string path, long fromSizeBytes, long toSizeBytes) => Volatile.Write(ref _resize,
        Detached(Resize, path)?.SetTag("eventfilter.resize.from_size", fromSizeBytes).SetTag("eventfilter.resize.to_size", toSizeBytes));

    public void ResizeCompleted() => Interlocked.Exchange(ref _resize, null)?.Stop();

    /// <summary>
    /// Only online rebuilds, which end in OnlineRebuildCompleted. One found at open is a tag of the open span: the
    /// catch-up that follows is its work.
    /// </summary>
    public void RebuildStarted(string path, RebuildReason reason)
    {
        if (reason is RebuildReason.AllOnesLines or RebuildReason.Requested)
        {
            Volatile.Write(ref _rebuild, Detached(Rebuild, path)?.SetTag("eventfilter.rebuild.reason", TagValues.Of(reason)));
        }
        else if (Activity.Current is { OperationName: Open } open && open.Source == Source)
        {
            open.SetTag("eventfilter.rebuild.reason", TagValues.Of(reason));
        }
    }

    public void RebuildCompleted() => Interlocked.Exchange(ref _rebuild, null)?.Stop();

    /// <summary>Catch-up, a resize or a rebuild failed: the spans still open end with the error.</summary>
    public void Failed(Exception error)
    {
        foreach (Activity? span in TakeAll())
        {
            Fail(span, error);
            span?.Stop();
        }
    }

    /// <summary>Stopping cancelled the work: not an error (the next start resumes), but not done either.</summary>
    public void Cancelled()
    {
        foreach (Activity? span in TakeAll())
        {
            span?.SetTag("eventfilter.cancelled", true).Stop();
        }
    }

    private Activity?[] TakeAll() => [Interlocked.Exchange(ref _catchUp, null), Interlocked.Exchange(ref _resize, null), Interlocked.Exchange(ref _rebuild, null)];

    // Ended by a callback elsewhere, so it must not stay Activity.Current here: what runs next on this flow is not its child.
    private static Activity? Detached(string name, string path, ActivityContext parent = default)
    {
        Activity? current = Activity.Current;
        Activity? span = Start(name, path, parent);
        Activity.Current = current;
        return span;
    }
}
