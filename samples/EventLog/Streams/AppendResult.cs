namespace EventLog.Streams;

/// <summary>What a successful, durable append wrote.</summary>
/// <param name="FirstEventNumber">The number given to the first event appended.</param>
/// <param name="LastEventNumber">The stream's last event number now: the exact expected version for the next append.</param>
/// <param name="LogPosition">The global byte offset of the first record written.</param>
/// <param name="CommitPosition">The log's durable end after the group commit that carried this append.</param>
public readonly record struct AppendResult(long FirstEventNumber, long LastEventNumber, long LogPosition, long CommitPosition);
