namespace EventFilter;

/// <summary>
/// How far the filter has read the host's log: for a host of several processes over one log, where a filter that
/// follows the log (<see cref="StreamExistenceFilterOptions.FollowLog"/>) learns the other processes' streams as it
/// reads them. Implemented by <see cref="StreamExistenceFilter"/>, and registered by the hosting package beside
/// <see cref="IStreamExistenceFilter"/>. See docs/design.md, "Following the log".
/// </summary>
public interface IFilterReadPosition
{
    /// <inheritdoc cref="StreamExistenceFilter.ReadPosition"/>
    long ReadPosition { get; }

    /// <inheritdoc cref="StreamExistenceFilter.WaitForReadPositionAsync"/>
    Task WaitForReadPositionAsync(long position, CancellationToken cancellationToken);
}
