namespace EventFilter.Daemon.Commands;

/// <summary>
/// Every command eventfilterd knows, as the command table identifies it from the first argument (as Garnet's
/// <c>RespCommand</c>): the connection dispatches on this value, so no handler reads the command's name again.
/// <see cref="Unknown"/> is a name the table does not have. The values index <see cref="CommandTable"/>'s specs.
/// </summary>
internal enum RespCommand : byte
{
    Unknown,
    Ping,
    Echo,
    Quit,
    Command,
    Info,
    Hello,
    Auth,
    BfReserve,
    BfAdd,
    BfMadd,
    BfExists,
    BfMexists,
    BfInfo,
    BfCard,
    BfInsert,
    BfScanDump,
    BfLoadChunk,
    Del,
    Unlink,
    Exists,
    Type,
    Keys,
    Scan,
    FlushAll,
    DbSize,
    Select,
    Client,
    Config,
    Multi,
    Exec,
    Discard,
    Watch,
    Unwatch,
    Latency,
    Slowlog,
}
