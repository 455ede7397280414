using System.Buffers.Text;
using System.IO.Hashing;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// SCAN cursor [MATCH pattern] [COUNT n]: the filter names a batch at a time, answered as Redis does with
/// [next cursor, [keys]], where cursor 0 starts a scan and a returned 0 ends it. Names are visited in the order of a
/// 62-bit hash of each key, and the cursor is the hash position to resume from, so the server keeps no state between
/// calls, any number of scans may run at once, a cursor stays valid across restarts, and a filter that exists for a
/// whole scan is returned exactly once (Redis promises at least once). Filters made or deleted during a scan may or
/// may not appear. As in Redis, COUNT is the work per call (names visited) and MATCH filters those afterwards, so a
/// batch may come back empty before the end. Each call hashes every name: not a hot path.
/// </summary>
internal static class KeyScan
{
    /// <summary>Redis's default COUNT.</summary>
    private const long DefaultCount = 10;

    public static void Run(CommandContext context)
    {
        var args = context.Arguments;
        if (!Utf8Parser.TryParse(args[1], out ulong cursor, out int used) || used != args[1].Length)
        {
            context.Reply.Error("ERR invalid cursor");
            return;
        }

        int pattern = -1;
        long count = DefaultCount;
        for (int i = 2; i < args.Count; i += 2)
        {
            if (i + 1 >= args.Count)
            {
                context.Reply.Error("ERR syntax error");
                return;
            }

            if (BloomArguments.Is(args[i], "MATCH"u8))
            {
                pattern = i + 1;
            }
            else if (!BloomArguments.Is(args[i], "COUNT"u8))
            {
                context.Reply.Error("ERR syntax error");
                return;
            }
            else if (!Utf8Parser.TryParse(args[i + 1], out count, out used) || used != args[i + 1].Length)
            {
                context.Reply.Error("ERR value is not an integer or out of range");
                return;
            }
            else if (count < 1)
            {
                context.Reply.Error("ERR syntax error");
                return;
            }
        }

        var ahead = new List<(ulong Position, byte[] Key)>();
        foreach (byte[] key in context.Store.Keys())
        {
            ulong position = PositionOf(key);
            if (position >= cursor)
            {
                ahead.Add((position, key));
            }
        }

        ahead.Sort((a, b) => a.Position.CompareTo(b.Position));

        // Names sharing a position go out in the same batch: the cursor cannot point between them.
        int taken = (int)Math.Min(count, ahead.Count);
        while (taken < ahead.Count && taken > 0 && ahead[taken].Position == ahead[taken - 1].Position)
        {
            taken++;
        }

        ulong next = taken < ahead.Count ? ahead[taken].Position : 0;
        List<byte[]> matched = [.. ahead.Take(taken).Select(e => e.Key).Where(key => pattern < 0 || KeyGlob.Matches(args[pattern], key))];
        context.Reply.ArrayHeader(2);
        context.Reply.Bulk(next.ToString(System.Globalization.CultureInfo.InvariantCulture));
        context.Reply.ArrayHeader(matched.Count);
        foreach (byte[] key in matched)
        {
            context.Reply.Bulk(key);
        }
    }

    /// <summary>
    /// Where a key sits in the scan order: from 1, so that cursor 0 starts at the first name, and below 2^62, so that a
    /// cursor fits the signed 64-bit integer some clients parse it into.
    /// </summary>
    private static ulong PositionOf(byte[] key) => (XxHash3.HashToUInt64(key) >> 2) + 1;
}
