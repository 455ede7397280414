namespace EventFilter;

/// <summary>How far a catch-up has come.</summary>
/// <param name="Path">The filter file being caught up.</param>
/// <param name="StartPosition">Where it started (the checkpoint, or 0).</param>
/// <param name="Position">Where it has read to.</param>
/// <param name="EndPosition">The log's end as last sampled.</param>
/// <param name="Records">Records added so far.</param>
/// <param name="Elapsed">Time since it started.</param>
public sealed record CatchUpProgress(string Path, long StartPosition, long Position, long EndPosition, long Records, TimeSpan Elapsed)
{
    /// <summary>Records per second since the start.</summary>
    public double RecordsPerSecond => Elapsed.TotalSeconds > 0 ? Records / Elapsed.TotalSeconds : 0;

    /// <summary>Share of the log between start and end already read, 0-100.</summary>
    public double Percent => EndPosition <= StartPosition ? 100 : 100.0 * (Position - StartPosition) / (EndPosition - StartPosition);

    /// <summary>Time left at the rate so far, by log position; zero once the end is reached; null before there is a rate.</summary>
    public TimeSpan? EstimatedRemaining
    {
        get
        {
            if (Position >= EndPosition)
            {
                return TimeSpan.Zero;
            }

            double done = Position - StartPosition;
            if (done <= 0 || Elapsed <= TimeSpan.Zero)
            {
                return null;
            }

            return TimeSpan.FromSeconds(Elapsed.TotalSeconds * (EndPosition - Position) / done);
        }
    }
}
