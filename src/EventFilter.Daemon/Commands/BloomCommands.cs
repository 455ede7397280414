using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Commands;

/// <summary>RedisBloom's BF.RESERVE, BF.ADD and BF.MADD (and the adding half of BF.INSERT), with its replies and errors. Lookups are in BloomQueries.</summary>
internal static class BloomCommands
{
    private const string NonScalingFull = "ERR non scaling filter is full";
    private const string GrowthRefused = "ERR max number of file descriptors reached: the filter is full and its next layer needs 3 more (RLIMIT_NOFILE); DEL filters or raise LimitNOFILE";

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
        if (BloomArguments.CheckCreate(parameters) is { } invalid)
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

    /// <summary>BF.ADD key item: one answer.</summary>
    public static void Add(CommandContext context) => Add(context, asArray: false);

    /// <summary>BF.MADD key item [item ...]: an array of answers.</summary>
    public static void MultiAdd(CommandContext context) => Add(context, asArray: true);

    /// <summary>BF.ADD and BF.MADD: a missing key gets a filter with the default parameters.</summary>
    private static void Add(CommandContext context, bool asArray)
    {
        // Only a missing key pays for sizing a layer (the exact false-positive model): never the hot path.
        NamedFilter? filter = context.Store.Find(context.Arguments[1]);
        if (filter is null)
        {
            FilterParameters parameters = context.DefaultParameters;
            if (BloomArguments.CheckCreate(parameters) is { } invalid)
            {
                context.Reply.Error(invalid);
                return;
            }

            filter = context.Store.FindOrCreate(context.Arguments[1], parameters);
        }

        AddAndReply(context, filter, firstItem: 2, asArray);
    }

    /// <summary>Adds arguments [firstItem, Count) and replies as BF.ADD (one answer) or BF.MADD and BF.INSERT (an array); 1/0 in RESP2, booleans in RESP3.</summary>
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
            AddOutcome.NoDescriptors => GrowthRefused,
            _ => null,
        };
        if (outcome == AddOutcome.NoDescriptors)
        {
            context.DescriptorLimitWarning.Refused(context.Logger, GrowthRefused);
        }

        if (!asArray)
        {
            if (error is null)
            {
                context.Reply.Boolean(added[0]);
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
            context.Reply.Boolean(added[i]);
        }

        if (error is not null)
        {
            context.Reply.Error(error);
        }
    }
}
