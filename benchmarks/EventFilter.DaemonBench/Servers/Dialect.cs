using System.Globalization;
using EventFilter.DaemonBench.Client;

namespace EventFilter.DaemonBench.Servers;

/// <summary>
/// The commands one server is driven with. eventfilterd gets RedisBloom's BF.*; Debian's Redis 7 has no Bloom module,
/// so it gets what a user would pick instead: an exact set, with the same batching (SADD/SISMEMBER/SMISMEMBER).
/// </summary>
internal sealed record Dialect(string Add, string MultiAdd, string Check, string MultiCheck, Func<string, long, byte[]> Create, Func<string, byte[]> Info)
{
    public static Dialect Bloom { get; } = new(
        "BF.ADD", "BF.MADD", "BF.EXISTS", "BF.MEXISTS",
        (key, capacity) => RespCommand.Encode("BF.RESERVE", key, "0.01", capacity.ToString(CultureInfo.InvariantCulture)),
        key => RespCommand.Encode("BF.INFO", key));

    /// <summary>A set exists once it has a member, so "create" adds one; "info" is its cardinality.</summary>
    public static Dialect Set { get; } = new(
        "SADD", "SADD", "SISMEMBER", "SMISMEMBER",
        (key, _) => RespCommand.Encode("SADD", key, "created"),
        key => RespCommand.Encode("SCARD", key));

    public static byte[] Drop(string key) => RespCommand.Encode("DEL", key);

    public static byte[] Ping { get; } = RespCommand.Encode("PING");

    public byte[] AddOne(string key, string item) => RespCommand.Encode(Add, key, item);

    public byte[] CheckOne(string key, string item) => RespCommand.Encode(Check, key, item);

    public byte[] AddMany(string key, IEnumerable<string> items) => RespCommand.Encode([MultiAdd, key, .. items]);

    public byte[] CheckMany(string key, IEnumerable<string> items) => RespCommand.Encode([MultiCheck, key, .. items]);
}
