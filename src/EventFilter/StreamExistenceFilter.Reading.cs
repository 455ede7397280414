namespace EventFilter;

/// <summary>
/// How far the filter has read the log, following it (docs/design.md, "Following the log"), and the samples of its end
/// that the run-time checks take (docs/design.md, "Run-time signs").
/// </summary>
public sealed partial class StreamExistenceFilter
{
    /// <summary>
    /// Every record of the log before this position has been read into the filter, by its catch-up or, with
    /// <see cref="StreamExistenceFilterOptions.FollowLog"/>, by its follower: "definitely not" means no record below it
    /// (and none this process added) has the name. Without following it stops where the catch-up ended; the host's own
    /// adds keep the filter current above it. 0 before the catch-up has read anything.
    /// </summary>
    public long ReadPosition => _state == FilterState.Ready ? _contract.ReadEnd : _catchUp.Position;

    /// <summary>
    /// Completes once <see cref="ReadPosition"/> is at or past <paramref name="position"/> and the filter is ready: a
    /// process that knows the commit position of another's append waits here before asking about its stream. Without
    /// <see cref="StreamExistenceFilterOptions.FollowLog"/>, a position past where the catch-up ended is never reached.
    /// </summary>
    public async Task WaitForReadPositionAsync(long position, CancellationToken cancellationToken)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(position);
        await WhenReady.WaitAsync(cancellationToken).ConfigureAwait(false);
        await _contract.WaitForReadAsync(position, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>
    /// How long the follower has been behind the log's end (since it first read the end above its position without
    /// having caught up since); zero at the end, and when not following. For telemetry and health.
    /// </summary>
    public TimeSpan FollowLag => _options.FollowLog ? _follower.Lag : TimeSpan.Zero;

    /// <summary>The log's end, or null when reading it throws: a reader reports that, and a checkpoint must not fail for it.</summary>
    private long? SampleEnd()
    {
        try
        {
            return _log.EndPosition;
        }
        catch (Exception)
        {
            return null;
        }
    }

    // Every sample of the end a ready filter takes anyway goes to the run-time checks (docs/design.md, "Run-time signs").
    // The checkpoint and the follower sample on their own threads, so a sample read first could reach the checks second
    // and read as the end moving back: the end is read again under one lock, so the checks see reads in the order they
    // were made. A host whose end really goes back is still seen, by two such reads.
    private void EndSampled(long end)
    {
        if (_files.Serving is { } serving)
        {
            lock (_endSampling)
            {
                _endChecks.Sampled(SampleEnd() ?? end, serving.File.HighestRecordEnd, _options.FollowLog ? _follower.Position : null);
            }
        }
    }

    // The follower's batch goes where a host's add goes: the serving file, then a file being built beside it, so that a
    // swap never loses what the follower read past the build's end (docs/design.md, "Following the log").
    private void AddRead(StreamNameBatch batch)
    {
        if (_files.Serving is not { } serving)
        {
            return;
        }

        serving.File.AddBatch(batch.Names, batch.Lengths);
        AlsoTo(serving)?.File.AddBatch(batch.Names, batch.Lengths);
    }
}
