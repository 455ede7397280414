namespace EventFilter;

/// <summary>
/// What the filter tells its host about its life. The core takes no logging dependency; the hosting package turns
/// these calls into log lines and metrics. Every method may be called from a background thread; none may throw.
/// </summary>
public class FilterObserver
{
    /// <summary>The file was opened (or created) and verified.</summary>
    public virtual void Opened(string path, bool created, VerificationResult verification) { }

    /// <summary>
    /// A new file is being built from the log: in place of one that cannot be used (not ready until caught up), or, for
    /// <see cref="RebuildReason.AllOnesLines"/> and <see cref="RebuildReason.Requested"/>, online, beside the serving one.
    /// </summary>
    public virtual void RebuildStarted(string path, RebuildReason reason, string detail) { }

    /// <summary>The configured size differs from the file's; a new file is being built while the old one serves.</summary>
    public virtual void ResizeStarted(string path, long fromSizeBytes, long toSizeBytes) { }

    /// <summary>The resized file caught up and replaced the old one.</summary>
    public virtual void ResizeCompleted(string path, long sizeBytes) { }

    /// <summary>An online rebuild at the same size swapped its new file in; see <see cref="StreamExistenceFilter.RebuildAsync"/>.</summary>
    public virtual void OnlineRebuildCompleted(string path, RebuildReason reason) { }

    /// <summary>The checkpoint could not be used; catch-up starts from the beginning of the log.</summary>
    public virtual void CheckpointIgnored(string path, string reason) { }

    /// <summary>Catch-up made progress; called about once a second and at the end.</summary>
    public virtual void CatchUpProgress(CatchUpProgress progress) { }

    /// <summary>Catch-up reached the log's end: the filter is ready.</summary>
    public virtual void CatchUpCompleted(CatchUpProgress progress) { }

    /// <summary>A checkpoint was made durable, after the flush it reports.</summary>
    public virtual void CheckpointWritten(string path, long position, FlushResult flush) { }

    /// <summary>A fold wrote journaled changes into the main file (bytes written there, and its duration) and dropped that journal.</summary>
    public virtual void JournalFolded(string path, FlushResult fold) { }

    /// <summary>
    /// The journal was damaged (a record failed its checksum): nothing from there on was applied, and catch-up starts
    /// from the last position committed before it.
    /// </summary>
    public virtual void JournalDamaged(string path, string detail) { }

    /// <summary>The host truncated its log and the checkpoint moved back.</summary>
    public virtual void Truncated(string path, long fromPosition, long toPosition) { }

    /// <summary>
    /// The host broke a rule of the host contract; <paramref name="detail"/> says what it did and what it should do.
    /// Called for every occurrence (a host can count them); the filter has already made what it could safe.
    /// </summary>
    public virtual void HostContractViolated(string path, HostContractViolation violation, string detail) { }

    /// <summary>
    /// The host's log broke one of its rules (docs/design.md, "The log's rules") for longer than a few seconds of
    /// retries (a read past the end at once), as a reader (the catch-up or the follower) saw it; or a ready filter saw a
    /// run-time sign of a wrong end (docs/design.md, "Run-time signs"). <paramref name="detail"/> says what it did.
    /// Called once per episode: a reader keeps retrying, never moves past what it read meanwhile, and goes on by itself
    /// when the log recovers (<see cref="LogRecovered"/>).
    /// </summary>
    public virtual void LogContractViolated(string path, LogContractViolation violation, string detail) { }

    /// <summary>
    /// A call to the host's log (<c>ReadAsync</c> or <c>EndPosition</c>) threw, during a catch-up or while following.
    /// Called for every failure (a host can count them by type); the reader waits a back-off step and retries.
    /// </summary>
    public virtual void LogReadFailed(string path, Exception error) { }

    /// <summary>
    /// The host's log has thrown on every call for <paramref name="failingFor"/>, longer than a few seconds of retries;
    /// <paramref name="error"/> is the latest. Called once per episode: the reader keeps retrying and goes on by itself
    /// when the log answers (<see cref="LogRecovered"/>). Meanwhile a catching-up filter answers "maybe" and a following
    /// one answers from what it has read.
    /// </summary>
    public virtual void LogUnavailable(string path, Exception error, TimeSpan failingFor) { }

    /// <summary>
    /// The log answers and keeps its rules again after a reported <see cref="LogContractViolated"/> or
    /// <see cref="LogUnavailable"/>; <paramref name="after"/> is how long the trouble lasted.
    /// </summary>
    public virtual void LogRecovered(string path, TimeSpan after) { }

    /// <summary>A catch-up or the follower read <paramref name="records"/> records from the log in one read and added them.</summary>
    public virtual void RecordsRead(string path, int records) { }

    /// <summary>Catch-up, a resize or an online rebuild failed: after a failed catch-up the filter stays not ready and answers "maybe"; after a failed resize or rebuild the old file goes on serving.</summary>
    public virtual void BackgroundWorkFailed(string path, Exception error) { }
}
