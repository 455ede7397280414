namespace EventLog.Client;

/// <summary>What one load run does.</summary>
/// <param name="ServerUrl">The server's base address, e.g. http://127.0.0.1:2113.</param>
/// <param name="Streams">New streams to create, one event each.</param>
/// <param name="Concurrency">Requests in flight at once.</param>
/// <param name="StreamPrefix">Stream names are <c>{prefix}-{i}</c>; unique per run, so every stream is new.</param>
internal sealed record LoadSettings(Uri ServerUrl, long Streams, int Concurrency, string StreamPrefix);
