namespace EventFilter.Daemon.Filters;

/// <summary>How a batch of adds to a named filter ended.</summary>
internal enum AddOutcome
{
    /// <summary>Every item was answered.</summary>
    Done,

    /// <summary>A non-scaling filter filled up: the items before it were answered, the rest refused (RedisBloom stops there too).</summary>
    Full,

    /// <summary>A scaling filter could not grow: its next layer would be over the size or layer limit.</summary>
    CannotGrow,

    /// <summary>The filter was deleted meanwhile; look it up again.</summary>
    Closed,

    /// <summary>A scaling filter could not grow: its next layer's descriptors would not fit the budget (<see cref="DescriptorBudget"/>).</summary>
    NoDescriptors,
}
