using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION n] [NOCREATE] [NONSCALING] ITEMS item [item ...]: adds the items,
/// creating the filter with the given (else default) parameters unless NOCREATE, which answers "ERR not found".
/// </summary>
internal static class BloomInsert
{
    public static void Run(CommandContext context)
    {
        var args = context.Arguments;
        FilterParameters parameters = context.DefaultParameters;
        bool noCreate = false, sized = false, expansionGiven = false;
        int i = 2;
        string? error = null;
        for (; i < args.Count && error is null; i++)
        {
            ReadOnlySpan<byte> option = args[i];
            bool hasValue = i + 1 < args.Count;
            if (BloomArguments.Is(option, "ITEMS"u8))
            {
                break;
            }
            else if (BloomArguments.Is(option, "NOCREATE"u8))
            {
                noCreate = true;
            }
            else if (BloomArguments.Is(option, "NONSCALING"u8))
            {
                parameters = parameters with { NonScaling = true };
            }
            else if (hasValue && BloomArguments.Is(option, "CAPACITY"u8) && BloomArguments.TryCapacity(args[++i], out long capacity, out error))
            {
                (parameters, sized) = (parameters with { Capacity = capacity }, true);
            }
            else if (hasValue && BloomArguments.Is(option, "ERROR"u8) && BloomArguments.TryErrorRate(args[++i], out double rate, out error))
            {
                (parameters, sized) = (parameters with { ErrorRate = rate }, true);
            }
            else if (hasValue && BloomArguments.Is(option, "EXPANSION"u8) && BloomArguments.TryExpansion(args[++i], out int expansion, out error))
            {
                (parameters, expansionGiven) = (parameters with { Expansion = expansion }, true);
            }
            else
            {
                error ??= "ERR syntax error";
            }
        }

        error ??= i >= args.Count - 1 ? "ERR wrong number of arguments for 'bf.insert' command"
            : noCreate && sized ? "ERR NOCREATE cannot be used with CAPACITY or ERROR"
            : parameters.NonScaling && expansionGiven ? "ERR Non scaling filters cannot expand"
            : null;
        if (error is not null)
        {
            context.Reply.Error(error);
            return;
        }

        NamedFilter? filter = context.Store.Find(args[1]);
        if (filter is null && noCreate)
        {
            context.Reply.Error("ERR not found");
            return;
        }

        if (filter is null && BloomArguments.CheckCreate(parameters) is { } invalid)
        {
            context.Reply.Error(invalid);
            return;
        }

        BloomCommands.AddAndReply(context, filter ?? context.Store.FindOrCreate(args[1], parameters), firstItem: i + 1, asArray: true);
    }
}
