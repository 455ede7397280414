namespace EventFilter;

/// <summary>
/// "Has a stream with this name ever been written?" for an append-only log: false means definitely not, true means maybe.
/// The host calls <see cref="Add(ReadOnlySpan{char})"/> for every record it appends and <see cref="Checkpoint"/> at positions
/// it has made durable. See docs/design.md, section "Host contract".
/// </summary>
public interface IStreamExistenceFilter
{
    /// <summary>Where the filter is in its life; only <see cref="FilterState.Ready"/> answers "definitely not".</summary>
    FilterState State { get; }

    /// <summary>True when caught up with the log.</summary>
    bool IsReady { get; }

    /// <summary>Completes when the filter first becomes ready; faults if catch-up fails.</summary>
    Task WhenReady { get; }

    /// <summary>The position the checkpoint file vouches for; null when disabled or not yet opened.</summary>
    long? CheckpointPosition { get; }

    /// <summary>False: no stream of this name was ever added. True: maybe (always true until ready).</summary>
    bool MightExist(ReadOnlySpan<char> streamName);

    /// <inheritdoc cref="MightExist(ReadOnlySpan{char})"/>
    bool MightExist(ReadOnlySpan<byte> utf8StreamName);

    /// <summary>Records that a stream was written. Call it for every append, from the moment the filter is opened.</summary>
    void Add(ReadOnlySpan<char> streamName);

    /// <inheritdoc cref="Add(ReadOnlySpan{char})"/>
    void Add(ReadOnlySpan<byte> utf8StreamName);

    /// <summary>
    /// Makes every add so far durable and records that the log up to <paramref name="position"/> is covered.
    /// The caller guarantees it has called Add for every record before <paramref name="position"/>.
    /// </summary>
    void Checkpoint(long position);

    /// <summary>The log was truncated to <paramref name="position"/>: the checkpoint moves back durably; bits stay.</summary>
    void TruncateTo(long position);
}
