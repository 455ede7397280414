using System.Globalization;
using System.Text;

namespace EventFilter.Daemon.Tests.Conformance;

/// <summary>Equality and printing of the values <see cref="RespClient"/> decodes, kind by kind (a simple string never equals a bulk one).</summary>
public static class Replies
{
    public static bool Same(object? a, object? b) => (a, b) switch
    {
        (null, null) => true,
        (byte[] x, byte[] y) => x.AsSpan().SequenceEqual(y),
        (object?[] x, object?[] y) => x.Length == y.Length && x.Zip(y).All(p => Same(p.First, p.Second)),
        (RespMap x, RespMap y) => x.Entries.Count == y.Entries.Count && x.Entries.Zip(y.Entries).All(p => Same(p.First.Key, p.Second.Key) && Same(p.First.Value, p.Second.Value)),
        (RespSet x, RespSet y) => Same(x.Members.ToArray(), y.Members.ToArray()),
        (null, _) or (_, null) => false,
        _ => a.GetType() == b.GetType() && a.Equals(b),
    };

    /// <summary>The first word of an error, its class (ERR, WRONGTYPE, ...).</summary>
    public static string ErrorClass(RespError error) => error.Message.Split(' ', 2)[0];

    /// <summary>A reply as RESP would show it, typed: +simple, $"bulk", :1, #t, _, -error, [..], {k: v}.</summary>
    public static string Show(object? reply) => reply switch
    {
        null => "(nil)",
        string simple => $"+{simple}",
        RespError error => $"-{error.Message}",
        long number => $":{number.ToString(CultureInfo.InvariantCulture)}",
        bool flag => flag ? "#t" : "#f",
        byte[] bulk => $"\"{Encoding.UTF8.GetString(bulk)}\"",
        RespNull => "_",
        object?[] array => $"[{string.Join(", ", array.Select(Show))}]",
        RespMap map => $"{{{string.Join(", ", map.Entries.Select(e => $"{Show(e.Key)}: {Show(e.Value)}"))}}}",
        RespSet set => $"~[{string.Join(", ", set.Members.Select(Show))}]",
        _ => reply.ToString() ?? "?",
    };
}
