namespace EventFilter.Specification;

/// <summary>
/// Holds the host's add of one stream inside <c>Add</c>: the host's call does not return, and the name does not reach
/// the filter, until the kit releases it. A host that adds before its commit (or flush) is thereby held with its
/// transaction in flight; one that adds after is held with its record durable and its add not yet returned. The held
/// call gives up waiting after <see cref="KitRun.Patience"/>, so a test that fails before releasing never hangs the host.
/// </summary>
internal sealed class AddHold(string stream) : IDisposable
{
    private readonly TaskCompletionSource<long> _reached = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly ManualResetEventSlim _released = new();

    public string Stream => stream;

    /// <summary>Completes with the held record's end when the host's add of <see cref="Stream"/> arrives.</summary>
    public Task<long> Reached => _reached.Task;

    public void Release() => _released.Set();

    /// <summary>Called by the host's add, on the host's thread: blocks it until released.</summary>
    public void Hold(long recordEnd)
    {
        _reached.TrySetResult(recordEnd);
        _released.Wait(KitRun.Patience);
    }

    public void Dispose()
    {
        _released.Set();
        _released.Dispose();
    }
}
