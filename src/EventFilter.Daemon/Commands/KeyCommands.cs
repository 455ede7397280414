namespace EventFilter.Daemon.Commands;

/// <summary>The keyspace commands over named filters: DEL (and UNLINK, which StackExchange.Redis sends for KeyDelete), EXISTS, TYPE, KEYS, DBSIZE and FLUSHALL.</summary>
internal static class KeyCommands
{
    public static void Delete(CommandContext context)
    {
        long deleted = 0;
        for (int i = 1; i < context.Arguments.Count; i++)
        {
            deleted += context.Store.Delete(context.Arguments[i]) ? 1 : 0;
        }

        context.Reply.Integer(deleted);
    }

    /// <summary>As in Redis, a key named twice counts twice.</summary>
    public static void Exists(CommandContext context)
    {
        long found = 0;
        for (int i = 1; i < context.Arguments.Count; i++)
        {
            found += context.Store.Find(context.Arguments[i]) is null ? 0 : 1;
        }

        context.Reply.Integer(found);
    }

    /// <summary>TYPE: RedisBloom's type name for a filter, as Redis with the module answers; "none" for a missing key.</summary>
    public static void Type(CommandContext context) =>
        context.Reply.SimpleString(context.Store.Find(context.Arguments[1]) is null ? "none"u8 : "MBbloom--"u8);

    public static void Keys(CommandContext context)
    {
        List<byte[]> keys = context.Store.Keys();
        // Not a hot path: KEYS walks every filter, as Redis's does.
        keys.RemoveAll(key => !KeyGlob.Matches(context.Arguments[1], key));
        context.Reply.ArrayHeader(keys.Count);
        foreach (byte[] key in keys)
        {
            context.Reply.Bulk(key);
        }

    }

    /// <summary>DBSIZE: the number of filters.</summary>
    public static void DbSize(CommandContext context) => context.Reply.Integer(context.Store.Count);

    /// <summary>FLUSHALL [ASYNC|SYNC]: both delete every filter before replying.</summary>
    public static void FlushAll(CommandContext context)
    {
        if (context.Arguments.Count == 2 && !System.Text.Ascii.EqualsIgnoreCase(context.Arguments[1], "ASYNC"u8) && !System.Text.Ascii.EqualsIgnoreCase(context.Arguments[1], "SYNC"u8))
        {
            context.Reply.Error("ERR syntax error");
            return;
        }

        context.Store.DeleteAll();
        context.Reply.Ok();
    }
}
