namespace EventFilter;

/// <summary>
/// "Has a stream with this name ever been written?" for an append-only log: false means definitely not, true means maybe.
/// The host calls <see cref="Add(ReadOnlySpan{char}, long)"/> for every record it appends, with the record's end, and
/// <see cref="Checkpoint"/> at positions it has made durable. See docs/design.md, section "Host contract".
/// </summary>
public interface IStreamExistenceFilter
{
    /// <summary>Where the filter is in its life; only <see cref="FilterState.Ready"/> answers "definitely not".</summary>
    FilterState State { get; }

    /// <summary>Completes when the filter first becomes ready; faults if catch-up fails.</summary>
    Task WhenReady { get; }

    /// <summary>The position the checkpoint file vouches for; null when disabled or not yet opened.</summary>
    long? CheckpointPosition { get; }

    /// <summary>False: no stream of this name was ever added. True: maybe (always true until ready).</summary>
    bool MightExist(ReadOnlySpan<char> streamName);

    /// <inheritdoc cref="MightExist(ReadOnlySpan{char})"/>
    bool MightExist(ReadOnlySpan<byte> utf8StreamName);

    /// <summary>
    /// Answers many names in one call, for a group commit's appends: <paramref name="results"/>[i] is false when no
    /// stream named <paramref name="streamNames"/>[i] was ever added. The names are hashed first and their lines
    /// prefetched, so the cache misses of a batch overlap; nothing is allocated. Until ready, every answer is true.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="results"/> is shorter than <paramref name="streamNames"/>.</exception>
    void MightExist(ReadOnlySpan<string> streamNames, Span<bool> results);

    /// <summary>
    /// Records that the log record ending at <paramref name="recordEnd"/> (the log position just past it) was written
    /// to <paramref name="streamName"/>. Call it for every record appended, from the moment the filter is opened, on
    /// any thread, before or after the record is durable.
    /// </summary>
    /// <exception cref="InvalidOperationException">The filter has not been opened yet.</exception>
    void Add(ReadOnlySpan<char> streamName, long recordEnd);

    /// <inheritdoc cref="Add(ReadOnlySpan{char}, long)"/>
    void Add(ReadOnlySpan<byte> utf8StreamName, long recordEnd);

    /// <summary>
    /// Makes every add so far durable and records that the log up to <paramref name="position"/> is covered: pass the
    /// log's durable end, or any lower position. No more is claimed than the adds reached, so a host that adds after
    /// its fsync, in log order, may pass the durable end too. A position below the previous one, with no
    /// <see cref="TruncateTo"/> in between, is reported as a host-contract violation and treated as a truncation.
    /// </summary>
    void Checkpoint(long position);

    /// <summary>The log was truncated to <paramref name="position"/>: the checkpoint moves back durably; bits stay.</summary>
    void TruncateTo(long position);
}
