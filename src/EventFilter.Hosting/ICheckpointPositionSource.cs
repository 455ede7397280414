
namespace EventFilter.Hosting;

/// <summary>
/// Tells the hosted filter where it may checkpoint. Register one in DI when <see cref="IStreamNameLog.EndPosition"/>
/// can run ahead of your calls to <c>Add</c>, for example when you add a record's stream only after fsyncing it.
/// Without one, the hosted filter checkpoints at <see cref="IStreamNameLog.EndPosition"/>. See docs/configuration.md,
/// section "Checkpoint position", and docs/design.md, section "Host contract".
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
