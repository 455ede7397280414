
namespace EventFilter.Hosting;

/// <summary>
/// Tells the hosted filter where it may checkpoint. Needed only by a host whose adds can return out of log order after
/// the record's fsync (several threads, each adding after its own fsync): the filter claims no more than its adds
/// reached, which covers every host that adds in log order, before or after its fsync. Without one, the hosted filter
/// checkpoints at <see cref="IStreamNameLog.EndPosition"/>. See docs/design.md, section "Host contract".
/// </summary>
public interface ICheckpointPositionSource
{
    /// <summary>
    /// A log position P such that <c>Add</c> has returned for the stream of every record before P. Read from the
    /// hosted filter's checkpoint timer and on shutdown; it must be cheap and thread-safe, and must never go back
    /// except when the log is truncated.
    /// </summary>
    long SafeCheckpointPosition { get; }
}
