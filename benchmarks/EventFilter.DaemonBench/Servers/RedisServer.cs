namespace EventFilter.DaemonBench.Servers;

/// <summary>Debian's redis-server binary and its version: both Redis's sets and RedisBloom run in it.</summary>
internal sealed record RedisServer(string Path, string Version);
