namespace PostgresEventStore;

/// <summary>One event to append: its type and its data as JSON.</summary>
public sealed record EventData(string Type, string Json);

/// <summary>
/// Events to append to one stream, if the stream is at <paramref name="ExpectedVersion"/>: <see cref="NoStream"/> for
/// a stream that must not exist yet, or the version of its last event.
/// </summary>
public sealed record Append(string Stream, long ExpectedVersion, IReadOnlyList<EventData> Events)
{
    public const long NoStream = -1;
}

/// <summary>
/// What became of an <see cref="Append"/>: appended, with the stream's new version and the position of its last event,
/// or refused because the stream was at <see cref="CurrentVersion"/> instead.
/// </summary>
public readonly record struct AppendResult(bool Appended, long CurrentVersion, long LastPosition)
{
    public static AppendResult WrongExpectedVersion(long currentVersion) => new(false, currentVersion, 0);
}
