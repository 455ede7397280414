namespace EventFilter;

/// <summary>
/// What a host did against the host contract (docs/design.md, "Host contract"). The filter reports each one to
/// <see cref="FilterObserver.HostContractViolated"/>, makes what it can safe, and goes on.
/// </summary>
public enum HostContractViolation
{
    /// <summary>
    /// <c>Add</c> came for a record that ends at or below a position the host had already checkpointed: that checkpoint
    /// claimed a name the filter did not have yet, and a crash in between would have lost it. Adds that come after the
    /// record's fsync must come in log order, or the host must checkpoint at a position its adds have all reached.
    /// </summary>
    LateAdd,

    /// <summary>
    /// The log went back without <c>TruncateTo</c>: <c>Checkpoint</c> was given a position below an earlier one, or an
    /// add came for a record below a position a checkpoint claimed while the log's durable end is now below that claim.
    /// The filter treats it as a truncation there.
    /// </summary>
    TruncationNotReported,

    /// <summary><c>Add</c> came after <c>Dispose</c>: the host did not stop appending before it closed the filter.</summary>
    AddAfterDispose,
}
