namespace EventFilter.Specification;

/// <summary>The gate that lets one race run alone: appends in flight finish first, and none starts until the race is over.</summary>
internal sealed partial class KitRun
{
    // AppendAsync's appends in flight, and whether a race wants to be alone (see AloneAsync).
    private int _inFlight;
    private int _racing;
    private TaskCompletionSource _raceOver = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>
    /// Runs <paramref name="race"/> with no append of <see cref="AppendAsync"/> starting meanwhile, once those in flight
    /// are done, so that the race's own append is the first record after its gate. Appends go on before and after.
    /// </summary>
    public async Task AloneAsync(Func<Task> race)
    {
        // Pairs with EnterAppendAsync: each side announces itself with a full fence before it reads the other's word.
        TaskCompletionSource over = _raceOver;
        Interlocked.Exchange(ref _racing, 1);
        try
        {
            while (Volatile.Read(ref _inFlight) > 0)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(1), Time).ConfigureAwait(false);
            }

            await race().ConfigureAwait(false);
        }
        finally
        {
            _raceOver = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            Interlocked.Exchange(ref _racing, 0);
            over.TrySetResult();
        }
    }

    private bool NoneInFlight => Volatile.Read(ref _inFlight) == 0;

    private void LeaveAppend() => Interlocked.Decrement(ref _inFlight);

    private async Task EnterAppendAsync()
    {
        while (true)
        {
            TaskCompletionSource over = _raceOver;
            Interlocked.Increment(ref _inFlight);
            if (Volatile.Read(ref _racing) == 0)
            {
                return;
            }

            Interlocked.Decrement(ref _inFlight);
            await over.Task.ConfigureAwait(false);
        }
    }
}
