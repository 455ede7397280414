using System.Text;

namespace EventFilter.Cli.Client;

/// <summary>The kinds of RESP2 reply eventfilterd sends (the client never asks for RESP3).</summary>
internal enum RespKind
{
    SimpleString,
    Error,
    Integer,
    BulkString,
    Null,
    Array,
}

/// <summary>
/// One decoded reply. The typed accessors state what the command expects, and a reply of another kind is a
/// <see cref="DaemonUnreachableException"/>: the peer is not the eventfilterd this tool knows.
/// </summary>
internal sealed record RespReply(RespKind Kind, string? Text = null, long Integer = 0, byte[]? Bytes = null, IReadOnlyList<RespReply>? Items = null)
{
    public static readonly RespReply Nil = new(RespKind.Null);

    public bool IsError => Kind == RespKind.Error;

    public long AsInteger() => Kind == RespKind.Integer ? Integer : throw Unexpected("an integer");

    public IReadOnlyList<RespReply> AsArray() => Kind == RespKind.Array ? Items! : throw Unexpected("an array");

    public byte[] AsBytes() => Kind == RespKind.BulkString ? Bytes! : throw Unexpected("a bulk string");

    /// <summary>A simple or a bulk string as text.</summary>
    public string AsText() => Kind switch
    {
        RespKind.SimpleString => Text!,
        RespKind.BulkString => Encoding.UTF8.GetString(Bytes!),
        _ => throw Unexpected("a string"),
    };

    private DaemonUnreachableException Unexpected(string expected) =>
        new($"the daemon answered with {Describe()} where {expected} was expected: is the socket really eventfilterd's?");

    private string Describe() => Kind switch
    {
        RespKind.SimpleString => $"the status '{Text}'",
        RespKind.Error => $"the error '{Text}'",
        RespKind.Integer => $"the integer {Integer}",
        RespKind.BulkString => $"a string of {Bytes!.Length} bytes",
        RespKind.Null => "nil",
        _ => $"an array of {Items!.Count}",
    };
}
