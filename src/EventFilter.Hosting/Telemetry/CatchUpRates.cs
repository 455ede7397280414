namespace EventFilter.Hosting.Telemetry;

/// <summary>
/// What the log lines, the metrics and the health check say about a catch-up: its rate, share done and time left,
/// computed from the core's <see cref="CatchUpProgress"/> (which carries only the positions, count and time).
/// </summary>
internal static class CatchUpRates
{
    extension(CatchUpProgress progress)
    {
        /// <summary>Records per second since the start.</summary>
        public double RecordsPerSecond => progress.Elapsed.TotalSeconds > 0 ? progress.Records / progress.Elapsed.TotalSeconds : 0;

        /// <summary>Share of the log between start and end already read, 0-100.</summary>
        public double Percent => progress.EndPosition <= progress.StartPosition
            ? 100
            : 100.0 * (progress.Position - progress.StartPosition) / (progress.EndPosition - progress.StartPosition);

        /// <summary>Time left at the rate so far, by log position; zero once the end is reached; null before there is a rate.</summary>
        public TimeSpan? EstimatedRemaining
        {
            get
            {
                if (progress.Position >= progress.EndPosition)
                {
                    return TimeSpan.Zero;
                }

                double done = progress.Position - progress.StartPosition;
                return done <= 0 || progress.Elapsed <= TimeSpan.Zero
                    ? null
                    : TimeSpan.FromSeconds(progress.Elapsed.TotalSeconds * (progress.EndPosition - progress.Position) / done);
            }
        }
    }
}
