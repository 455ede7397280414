using EventFilter.Daemon.Filters;

namespace EventFilter.Daemon.Commands;

/// <summary>RedisBloom's BF.RESERVE, BF.ADD, BF.MADD, BF.EXISTS, BF.MEXISTS, BF.INFO and BF.CARD, with its replies and errors.</summary>
internal static class BloomCommands
{
    private const string NonScalingFull = "ERR non scaling filter is full";
    private const string NotFound = "ERR not found";

    /// <summary>BF.RESERVE key error_rate capacity [EXPANSION n] [NONSCALING]</summary>
    public static void Reserve(CommandContext context)
    {
        var args = context.Arguments;
        if (!BloomArguments.TryErrorRate(args[2], out double rate, out string? error) || !BloomArguments.TryCapacity(args[3], out long capacity, out error))
        {
            context.Reply.Error(error!);
            return;
        }

        int expansion = 2;
        bool nonScaling = false, expansionGiven = false;
        for (int i = 4; i < args.Count; i++)
        {
            if (BloomArguments.Is(args[i], "NONSCALING"u8))
            {
                nonScaling = true;
            }
            else if (BloomArguments.Is(args[i], "EXPANSION"u8) && i + 1 < args.Count)
            {
                expansionGiven = true;
                if (!BloomArguments.TryExpansion(args[++i], out expansion, out error))
                {
                    context.Reply.Error(error!);
                    return;
                }
            }
            else
            {
                context.Reply.Error("ERR syntax error");
                return;
            }
        }

        if (nonScaling && expansionGiven)
        {
            context.Reply.Error("ERR Non scaling filters cannot expand");
            return;
        }

        var parameters = new FilterParameters(capacity, rate, expansion, nonScaling);
        if (BloomArguments.CheckCreate(args[1], parameters) is { } invalid)
        {
            context.Reply.Error(invalid);
        }
        else if (context.Store.Create(args[1], parameters) is null)
        {
            context.Reply.Error("ERR item exists");
        }
        else
        {
            context.Reply.Ok();
        }
    }

    /// <summary>BF.ADD key item, BF.MADD key item [item ...]: a missing key gets a filter with the default parameters.</summary>
    public static void Add(CommandContext context)
    {
        // Only a missing key pays for sizing a layer (the exact false-positive model): never the hot path.
        NamedFilter? filter = context.Store.Find(context.Arguments[1]);
        if (filter is null)
        {
            FilterParameters parameters = context.DefaultParameters;
            if (BloomArguments.CheckCreate(context.Arguments[1], parameters) is { } invalid)
            {
                context.Reply.Error(invalid);
                return;
            }

            filter = context.Store.FindOrCreate(context.Arguments[1], parameters);
        }

        AddAndReply(context, filter, firstItem: 2, asArray: context.Arguments[0].Length > 6);
    }

    /// <summary>Adds arguments [firstItem, Count) and replies as BF.ADD (one integer) or BF.MADD and BF.INSERT (an array).</summary>
    public static void AddAndReply(CommandContext context, NamedFilter filter, int firstItem, bool asArray)
    {
        ReadOnlySpan<ulong> digests = context.DigestItems(firstItem);
        Span<bool> added = context.Answers(digests.Length);
        AddOutcome outcome = filter.Add(digests, added, out int answered);

        // Even when every answer is 0: the item may be another connection's add, not yet written, and this
        // reply too must not go out before it is durable.
        context.Added(filter);

        string? error = outcome switch
        {
            AddOutcome.Full => NonScalingFull,
            AddOutcome.CannotGrow => "ERR max number of scaling filters reached",
            AddOutcome.Closed => "ERR the filter was deleted while adding; retry",
            _ => null,
        };
        if (!asArray)
        {
            if (error is null)
            {
                context.Reply.Integer(added[0] ? 1 : 0);
            }
            else
            {
                context.Reply.Error(error);
            }

            return;
        }

        // Like RedisBloom, an array that stops at the refused item, with the error as its last element.
        context.Reply.ArrayHeader(answered + (error is null ? 0 : 1));
        for (int i = 0; i < answered; i++)
        {
            context.Reply.Integer(added[i] ? 1 : 0);
        }

        if (error is not null)
        {
            context.Reply.Error(error);
        }
    }

    /// <summary>BF.EXISTS key item, BF.MEXISTS key item [item ...]: a missing key answers 0 for every item.</summary>
    public static void Exists(CommandContext context)
    {
        ReadOnlySpan<ulong> digests = context.DigestItems(2);
        Span<bool> found = context.Answers(digests.Length);
        if (context.Store.Find(context.Arguments[1]) is not { } filter || !filter.MightExist(digests, found))
        {
            found.Clear();
        }

        bool asArray = context.Arguments[0].Length > 9;
        if (asArray)
        {
            context.Reply.ArrayHeader(found.Length);
        }

        foreach (bool answer in found)
        {
            context.Reply.Integer(answer ? 1 : 0);
        }
    }

    /// <summary>BF.CARD key: items added (each answered 1 by BF.ADD); 0 for a missing key.</summary>
    public static void Card(CommandContext context) => context.Reply.Integer(context.Store.Find(context.Arguments[1])?.Count ?? 0);

    /// <summary>BF.INFO key [CAPACITY | SIZE | FILTERS | ITEMS | EXPANSION]</summary>
    public static void Info(CommandContext context)
    {
        if (context.Store.Find(context.Arguments[1]) is not { } filter)
        {
            context.Reply.Error(NotFound);
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

        context.Reply.ArrayHeader(fields.Length * 2);
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
            context.Reply.NullBulk();
        }
    }
}
