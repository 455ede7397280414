namespace EventFilter.Daemon.Filters;

/// <summary>
/// Where a filter that has no files yet writes the digests of its first items (with --log-sync periodic, the control
/// log: <see cref="ControlLogDurability"/>), so that its first adds allocate no inode on the command's path. See
/// docs/daemon-design.md, "Durability".
/// </summary>
internal interface IHeldItemsLog
{
    /// <summary>
    /// Records <paramref name="digests"/>, added to <paramref name="filter"/> in this order, so that they survive SIGKILL,
    /// and tells the filter (<see cref="NamedFilter.ItemsRecorded"/>) under the same lock the next tick reads it with.
    /// Called under the filter's lock.
    /// </summary>
    void Write(NamedFilter filter, ReadOnlySpan<ulong> digests);
}
