namespace EventFilter.Daemon.Commands;

/// <summary>RedisBloom's lookups: BF.EXISTS, BF.MEXISTS, BF.CARD and BF.INFO, with its replies and errors.</summary>
internal static class BloomQueries
{
    /// <summary>BF.EXISTS key item: one answer.</summary>
    public static void Exists(CommandContext context) => Exists(context, asArray: false);

    /// <summary>BF.MEXISTS key item [item ...]: an array of answers.</summary>
    public static void MultiExists(CommandContext context) => Exists(context, asArray: true);

    /// <summary>BF.EXISTS and BF.MEXISTS: a missing key answers 0 for every item.</summary>
    private static void Exists(CommandContext context, bool asArray)
    {
        ReadOnlySpan<ulong> digests = context.DigestItems(2);
        Span<bool> found = context.Answers(digests.Length);
        if (context.Store.Find(context.Arguments[1]) is not { } filter || !filter.MightExist(digests, found))
        {
            found.Clear();
        }

        // BF.MEXISTS answers an array; BF.EXISTS one answer (1/0 in RESP2, a boolean in RESP3).
        if (asArray)
        {
            context.Reply.ArrayHeader(found.Length);
        }

        foreach (bool answer in found)
        {
            context.Reply.Boolean(answer);
        }
    }

    /// <summary>BF.CARD key: items added (each answered 1 by BF.ADD); 0 for a missing key.</summary>
    public static void Card(CommandContext context) => context.Reply.Integer(context.Store.Find(context.Arguments[1])?.Count ?? 0);

    /// <summary>BF.INFO key [CAPACITY | SIZE | FILTERS | ITEMS | EXPANSION]</summary>
    public static void Info(CommandContext context)
    {
        if (context.Store.Find(context.Arguments[1]) is not { } filter)
        {
            context.Reply.Error("ERR not found");
            return;
        }

        (long capacity, long size, int layers, long items) = filter.Describe();
        long? expansion = filter.Parameters.NonScaling ? null : filter.Parameters.Expansion;
        (string Label, string Field, long? Value)[] fields =
        [
            ("Capacity", "CAPACITY", capacity),
            ("Size", "SIZE", size),
            ("Number of filters", "FILTERS", layers),
            ("Number of items inserted", "ITEMS", items),
            ("Expansion rate", "EXPANSION", expansion),
        ];
        if (context.Arguments.Count == 3)
        {
            // One field: RedisBloom answers an array of just its value.
            int index = Array.FindIndex(fields, f => System.Text.Ascii.EqualsIgnoreCase(context.Arguments[2], f.Field));
            if (index < 0)
            {
                context.Reply.Error("ERR Invalid information value");
                return;
            }

            context.Reply.ArrayHeader(1);
            WriteValue(context, fields[index].Value);
            return;
        }

        // A map in RESP3; in RESP2 the flat array of label, value pairs.
        context.Reply.MapHeader(fields.Length);
        foreach (var (label, _, value) in fields)
        {
            context.Reply.SimpleString(System.Text.Encoding.ASCII.GetBytes(label));
            WriteValue(context, value);
        }
    }

    private static void WriteValue(CommandContext context, long? value)
    {
        if (value is { } number)
        {
            context.Reply.Integer(number);
        }
        else
        {
            context.Reply.Null();
        }
    }
}
