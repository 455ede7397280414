namespace EventFilter;

/// <summary>Where the filter is in its life. Only <see cref="Ready"/> answers "definitely not".</summary>
public enum FilterState
{
    /// <summary>Opening, verifying or catching up: every lookup answers "maybe".</summary>
    Initializing,

    /// <summary>Caught up with the log: lookups use the bits.</summary>
    Ready,

    /// <summary>Size 0: no file, every lookup answers "maybe".</summary>
    Disabled,

    /// <summary>Catch-up failed; every lookup answers "maybe" until the host restarts it.</summary>
    Failed,

    /// <summary>Disposed: the files are closed and every lookup answers "maybe".</summary>
    Stopped,
}
