namespace EventFilter.Daemon.Protocol;

/// <summary>What <see cref="RespParser.TryParse"/> found at the front of the buffer.</summary>
internal enum ParseResult
{
    /// <summary>A whole command; its arguments are filled in and its bytes consumed.</summary>
    Command,

    /// <summary>The front of a command; read more and try again.</summary>
    Incomplete,

    /// <summary>Not RESP, or beyond a limit: answer the error and close the connection.</summary>
    ProtocolError,
}
