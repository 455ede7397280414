namespace EventFilter.Tests.Durability;

/// <summary>Counts what the filter reported, so tests can assert on rebuilds, resizes and ignored checkpoints.</summary>
public sealed class RecordingObserver : FilterObserver
{
    public List<RebuildReason> Rebuilds { get; } = [];

    public List<string> IgnoredCheckpoints { get; } = [];

    public int ResizesCompleted { get; private set; }

    public List<RebuildReason> OnlineRebuildsCompleted { get; } = [];

    public int CheckpointsWritten { get; private set; }

    public List<(long From, long To)> Truncations { get; } = [];

    public VerificationResult? LastVerification { get; private set; }

    public string? JournalDamage { get; private set; }

    public List<(HostContractViolation Violation, string Detail)> Violations { get; } = [];

    public List<(LogContractViolation Violation, string Detail)> LogViolations { get; } = [];

    public List<Exception> LogFailures { get; } = [];

    public List<(Exception Error, TimeSpan FailingFor)> LogUnavailabilities { get; } = [];

    public List<TimeSpan> LogRecoveries { get; } = [];

    public int Folds => Volatile.Read(ref _folds);

    private int _folds;

    private readonly List<(string Path, long Position, TaskCompletionSource Reached)> _checkpointWaits = [];

    public override void JournalFolded(string path, FlushResult fold) => Interlocked.Increment(ref _folds);

    public override void JournalDamaged(string path, string detail) => JournalDamage = detail;

    public override void HostContractViolated(string path, HostContractViolation violation, string detail)
    {
        lock (Violations)
        {
            Violations.Add((violation, detail));
        }
    }

    public override void LogContractViolated(string path, LogContractViolation violation, string detail)
    {
        lock (LogViolations)
        {
            LogViolations.Add((violation, detail));
        }
    }

    /// <summary>Runs at each failed call to the log: a test's way to stop the process there.</summary>
    public Action<Exception>? OnLogReadFailed { get; set; }

    public override void LogReadFailed(string path, Exception error)
    {
        lock (LogFailures)
        {
            LogFailures.Add(error);
        }

        OnLogReadFailed?.Invoke(error);
    }

    public override void LogUnavailable(string path, Exception error, TimeSpan failingFor)
    {
        lock (LogUnavailabilities)
        {
            LogUnavailabilities.Add((error, failingFor));
        }
    }

    public override void LogRecovered(string path, TimeSpan after)
    {
        lock (LogRecoveries)
        {
            LogRecoveries.Add(after);
        }
    }

    public override void Opened(string path, bool created, VerificationResult verification) => LastVerification = verification;

    public override void RebuildStarted(string path, RebuildReason reason, string detail) => Rebuilds.Add(reason);

    public override void CheckpointIgnored(string path, string reason) => IgnoredCheckpoints.Add(reason);

    public override void ResizeCompleted(string path, long sizeBytes) => ResizesCompleted++;

    public override void OnlineRebuildCompleted(string path, RebuildReason reason) => OnlineRebuildsCompleted.Add(reason);

    public override void CheckpointWritten(string path, long position, FlushResult flush)
    {
        CheckpointsWritten++;
        lock (_checkpointWaits)
        {
            foreach ((string waitPath, long waitPosition, TaskCompletionSource reached) in _checkpointWaits)
            {
                if (waitPath == path && position >= waitPosition)
                {
                    reached.TrySetResult();
                }
            }
        }
    }

    /// <summary>Completes once a checkpoint of the file at <paramref name="path"/> is written at or past <paramref name="position"/>.</summary>
    public Task WhenCheckpointed(string path, long position)
    {
        var reached = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_checkpointWaits)
        {
            _checkpointWaits.Add((path, position, reached));
        }

        return reached.Task;
    }

    public override void Truncated(string path, long fromPosition, long toPosition) => Truncations.Add((fromPosition, toPosition));
}
