using System.Collections.Concurrent;

namespace EventFilter.Specification;

/// <summary>What the kit's filter reports: host- and log-contract violations, background failures, and checkpoints to wait for.</summary>
internal sealed class KitObserver : FilterObserver
{
    private readonly ConcurrentQueue<(string Path, long Position, TaskCompletionSource Reached)> _waits = new();

    public ConcurrentQueue<(HostContractViolation Violation, string Detail)> Violations { get; } = new();

    public ConcurrentQueue<(LogContractViolation Violation, string Detail)> LogViolations { get; } = new();

    /// <summary>Completes at the first log-contract violation the filter reports.</summary>
    public TaskCompletionSource LogViolated { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public ConcurrentQueue<Exception> Failures { get; } = new();

    public TaskCompletionSource Resized { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes once a checkpoint of the file at <paramref name="path"/> reaches <paramref name="position"/>.</summary>
    public Task WhenCheckpointed(string path, long position)
    {
        var reached = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        _waits.Enqueue((path, position, reached));
        return reached.Task;
    }

    public override void HostContractViolated(string path, HostContractViolation violation, string detail) => Violations.Enqueue((violation, detail));

    public override void LogContractViolated(string path, LogContractViolation violation, string detail)
    {
        LogViolations.Enqueue((violation, detail));
        LogViolated.TrySetResult();
    }

    public override void BackgroundWorkFailed(string path, Exception error) => Failures.Enqueue(error);

    public override void ResizeCompleted(string path, long sizeBytes) => Resized.TrySetResult();

    public override void CheckpointWritten(string path, long position, FlushResult flush)
    {
        foreach ((string waitPath, long waitPosition, TaskCompletionSource reached) in _waits)
        {
            if (waitPath == path && position >= waitPosition)
            {
                reached.TrySetResult();
            }
        }
    }
}
