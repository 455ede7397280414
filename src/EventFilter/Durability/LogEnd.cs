namespace EventFilter.Durability;

/// <summary>
/// The log's end as one reader (a catch-up or the follower) sampled it, and the highest it has said since the last
/// truncation. A sample that throws is a <see cref="LogCallFailedException"/>, which the reader retries.
/// </summary>
internal sealed class LogEnd(IStreamNameLog log)
{
    public long Value { get; private set; } = -1;

    public long Highest { get; private set; }

    /// <summary>True once a sample has succeeded.</summary>
    public bool Known => Value >= 0;

    /// <summary>True when the end went below a value it reported, with no truncation since: the log broke rule 1.</summary>
    public bool MovedBack => Value < Highest;

    public void Sample()
    {
        long value;
        try
        {
            value = log.EndPosition;
        }
        catch (Exception error)
        {
            throw new LogCallFailedException(error);
        }

        Value = value;
        Highest = Math.Max(Highest, value);
    }

    /// <summary>The host cut its log: the end may go back to there.</summary>
    public void Truncated(long position)
    {
        Highest = Math.Min(Highest, position);
        Value = Math.Min(Value, position);
    }

    /// <summary>The detail of an <see cref="LogContractViolation.EndMovedBack"/>.</summary>
    public string MovedBackDetail => $"EndPosition went back from {Highest} to {Value} with no TruncateTo: the durable end only grows, and when the log is cut the host must call TruncateTo.";
}

/// <summary>A call to the host's log threw; <see cref="Exception.InnerException"/> is what it threw. Never leaves the reader.</summary>
internal sealed class LogCallFailedException(Exception error) : Exception(error.Message, error);
