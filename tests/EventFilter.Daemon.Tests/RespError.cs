namespace EventFilter.Daemon.Tests;

/// <summary>An error reply ("-ERR ..."), kept as a value so that arrays can hold one, as BF.MADD's do.</summary>
public sealed record RespError(string Message);
