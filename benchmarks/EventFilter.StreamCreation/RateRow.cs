namespace EventFilter.StreamCreation;

/// <summary>One CSV row: after <paramref name="Streams"/> streams of a config, the elapsed time and the window's rate.</summary>
/// <param name="Config">The config's name.</param>
/// <param name="Streams">Streams created so far (the end of the window).</param>
/// <param name="ElapsedSeconds">Seconds since the config's first append.</param>
/// <param name="WindowRatePerSecond">Streams created per second within the window that ends here.</param>
internal sealed record RateRow(string Config, long Streams, double ElapsedSeconds, double WindowRatePerSecond);
