using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>RESP3's null ("_"), distinct from RESP2's null bulk string, which <see cref="RespClient"/> reads as null.</summary>
public sealed record RespNull
{
    public static readonly RespNull Value = new();

    private RespNull()
    {
    }
}

/// <summary>A RESP3 map ("%"), in the order the daemon sent it.</summary>
public sealed record RespMap(IReadOnlyList<KeyValuePair<object?, object?>> Entries)
{
    /// <summary>The value under a key sent as a simple or a bulk string.</summary>
    public object? this[string key] => Entries.Single(e => KeyText(e.Key) == key).Value;

    public IEnumerable<string> Keys => Entries.Select(e => KeyText(e.Key));

    private static string KeyText(object? key) => key as string ?? Encoding.UTF8.GetString((byte[])key!);
}

/// <summary>A RESP3 set ("~"), its members in the order the daemon sent them.</summary>
public sealed record RespSet(IReadOnlyList<object?> Members);

/// <summary>A RESP3 verbatim string ("="): its three-letter format and its text.</summary>
public sealed record RespVerbatim(string Format, string Text);
