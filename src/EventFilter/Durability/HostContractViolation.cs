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
    /// <c>Checkpoint</c> was given a position below an earlier one with no <c>TruncateTo</c> in between: the log went
    /// back without the filter being told. The filter treats it as a truncation there.
    /// </summary>
    CheckpointMovedBack,

    /// <summary><c>Add</c> came after <c>Dispose</c>: the host did not stop appending before it closed the filter.</summary>
    AddAfterDispose,
}
