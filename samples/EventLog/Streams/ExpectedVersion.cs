namespace EventLog.Streams;

/// <summary>What an append expects of its stream's last event number (optimistic concurrency).</summary>
public enum ExpectedVersionKind
{
    /// <summary>No check: append whatever the stream holds. The default.</summary>
    Any,

    /// <summary>The stream must never have been written.</summary>
    NoStream,

    /// <summary>The stream must hold at least one event.</summary>
    StreamExists,

    /// <summary>The stream's last event number must be exactly <see cref="ExpectedVersion.EventNumber"/>.</summary>
    Exact,
}

/// <summary>
/// The condition an append puts on its stream. Event numbers start at 0; a stream that was never written has last event
/// number -1. The default value is <see cref="Any"/>.
/// </summary>
public readonly record struct ExpectedVersion
{
    private ExpectedVersion(ExpectedVersionKind kind, long eventNumber)
    {
        Kind = kind;
        EventNumber = eventNumber;
    }

    /// <summary>No check.</summary>
    public static ExpectedVersion Any => default;

    /// <summary>The stream must not exist.</summary>
    public static ExpectedVersion NoStream => new(ExpectedVersionKind.NoStream, -1);

    /// <summary>The stream must exist.</summary>
    public static ExpectedVersion StreamExists => new(ExpectedVersionKind.StreamExists, 0);

    /// <summary>Which check.</summary>
    public ExpectedVersionKind Kind { get; }

    /// <summary>For <see cref="ExpectedVersionKind.Exact"/>, the last event number expected; otherwise meaningless.</summary>
    public long EventNumber { get; }

    /// <summary>The stream's last event number must be <paramref name="eventNumber"/> (0 or more).</summary>
    public static ExpectedVersion Exact(long eventNumber)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(eventNumber);
        return new ExpectedVersion(ExpectedVersionKind.Exact, eventNumber);
    }

    /// <summary>True when a stream whose last event number is <paramref name="lastEventNumber"/> (-1: none) passes.</summary>
    public bool IsSatisfiedBy(long lastEventNumber) => Kind switch
    {
        ExpectedVersionKind.NoStream => lastEventNumber < 0,
        ExpectedVersionKind.StreamExists => lastEventNumber >= 0,
        ExpectedVersionKind.Exact => lastEventNumber == EventNumber,
        _ => true,
    };

    /// <inheritdoc/>
    public override string ToString() => Kind switch
    {
        ExpectedVersionKind.NoStream => "no stream",
        ExpectedVersionKind.StreamExists => "stream exists",
        ExpectedVersionKind.Exact => EventNumber.ToString(System.Globalization.CultureInfo.InvariantCulture),
        _ => "any",
    };
}
