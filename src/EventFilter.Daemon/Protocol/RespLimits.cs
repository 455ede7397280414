namespace EventFilter.Daemon.Protocol;

/// <summary>
/// Bounds on what one client may send, so that a hostile or broken frame costs a bounded amount of memory and time.
/// A command must fit whole in the connection's buffer; anything beyond these limits is a protocol error.
/// </summary>
internal sealed record RespLimits
{
    /// <summary>Largest bulk string (a key or an item). The default value is 1 MiB.</summary>
    public int MaxBulkLength { get; init; } = 1 << 20;

    /// <summary>Most arguments in one command. The default value is 1,048,576.</summary>
    public int MaxArrayLength { get; init; } = 1 << 20;

    /// <summary>Largest whole command in bytes, which bounds the connection's read buffer. The default value is 64 MiB.</summary>
    public int MaxCommandBytes { get; init; } = 64 << 20;

    /// <summary>Longest header line ("*123\r\n", "$45\r\n"): a 64-bit length plus sign and CRLF fits in 24 bytes.</summary>
    public const int MaxHeaderLine = 24;
}
