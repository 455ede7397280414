using EventLog.Segments;

namespace EventLog.Tests.Writing;

/// <summary>
/// A full disk at a chosen point of a group commit, deterministically, through the engine's fault seam
/// (<see cref="EventLogEngine.DiskFaults"/>). It holds the writer inside one commit's fsync, so that the appends the
/// test queues meanwhile all go into the next commit, and fails steps of that next commit only: the n-th of a kind
/// with ENOSPC, a write after some of its bytes have landed.
/// </summary>
internal sealed class FullDisk : IDisposable
{
    private readonly ManualResetEventSlim _release = new();
    private readonly TaskCompletionSource _held = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Dictionary<WriteStep, int> _seen = [];
    private readonly List<(WriteStep Step, int Occurrence, int Landed)> _failures = [];
    private volatile bool _holding;
    private bool _armed;

    /// <summary>Completes once the writer is held inside the fsync of the commit after <see cref="HoldNextSync"/>.</summary>
    public Task Held => _held.Task;

    /// <summary>The next fsync waits for <see cref="Release"/>; the steps after it are the failing commit's.</summary>
    public void HoldNextSync() => _holding = true;

    /// <summary>The <paramref name="occurrence"/>-th <paramref name="step"/> of the next commit fails, a write once <paramref name="landed"/> bytes are in.</summary>
    public FullDisk FailAt(WriteStep step, int occurrence = 1, int landed = 0)
    {
        _failures.Add((step, occurrence, landed));
        return this;
    }

    public void Release() => _release.Set();

    /// <summary>The seam's answer for each step: null lets it through.</summary>
    public int? Before(WriteStep step, int bytes)
    {
        if (_holding && step == WriteStep.Sync)
        {
            _holding = false;
            _held.SetResult();
            Assert.True(_release.Wait(TimeSpan.FromMinutes(1)), "the test never released the writer");
            _armed = true;
            return null;
        }

        if (!_armed)
        {
            return null;
        }

        int occurrence = _seen[step] = _seen.GetValueOrDefault(step) + 1;
        foreach ((WriteStep failing, int at, int landed) in _failures)
        {
            if (failing == step && at == occurrence)
            {
                return Math.Min(landed, bytes);
            }
        }

        return null;
    }

    public void Dispose() => _release.Dispose();
}
