namespace EventLog.Errors;

/// <summary>An append the engine cannot store: a bad event type, too many events, or more bytes than one segment holds. Nothing was written.</summary>
public sealed class InvalidEventException : ArgumentException
{
    /// <summary>Creates the error about the event at <paramref name="index"/> in the append (-1: the append as a whole).</summary>
    public InvalidEventException(int index, string reason)
        : base(index >= 0 ? $"Invalid event at index {index}: {reason}." : $"Invalid append: {reason}.", "events")
    {
        Index = index;
        Reason = reason;
    }

    /// <summary>The offending event's index in the append, or -1 when the append as a whole is at fault.</summary>
    public int Index { get; }

    /// <summary>Why it was rejected.</summary>
    public string Reason { get; }
}
