using System.Text;
using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// What COMMAND reports of a command, in Redis 7's terms, and how it runs: its name (<c>container|sub</c> for a
/// subcommand), the argument counts it takes (the name included; Redis's arity is <see cref="Arity"/>), its flags,
/// where its keys are, its handler, its subcommands (CLIENT's, CONFIG's, COMMAND's), and what it does with items
/// (<see cref="Items"/>).
/// </summary>
internal sealed record CommandSpec(string Name, int MinArgs, int MaxArgs, CommandFlags Flags, CommandKeys Keys, Action<CommandContext> Run, CommandSpec[] Subcommands)
{
    /// <summary>Whether it adds or looks up items, and where they start; none for a command without items.</summary>
    public ItemArguments Items { get; init; } = ItemArguments.None;

    /// <summary>The name as clients send it, for matching in any case.</summary>
    public byte[] Bytes { get; } = Encoding.ASCII.GetBytes(Name[(Name.IndexOf('|', StringComparison.Ordinal) + 1)..]);

    /// <summary>The name as COMMAND and CLIENT LIST show it: lower case.</summary>
    public string LowerName { get; } = Name.ToLowerInvariant();

    /// <summary>Redis's arity: the count when fixed, else minus the least.</summary>
    public int Arity => MinArgs == MaxArgs ? MinArgs : -MinArgs;

    /// <summary>The first key's position, the last's (-1: the last argument), and the step between keys; 0 0 0 for none.</summary>
    public (int First, int Last, int Step) KeyPositions => Keys switch
    {
        CommandKeys.First => (1, 1, 1),
        CommandKeys.All => (1, -1, 1),
        _ => (0, 0, 0),
    };

    /// <summary>The subcommand named <paramref name="name"/>, any case; null if none.</summary>
    public CommandSpec? Subcommand(ReadOnlySpan<byte> name)
    {
        foreach (CommandSpec subcommand in Subcommands)
        {
            if (Ascii.EqualsIgnoreCase(name, subcommand.Bytes))
            {
                return subcommand;
            }
        }

        return null;
    }
}

/// <summary>What a command does with the items among its arguments.</summary>
internal enum ItemUse
{
    None,
    Add,
    Check,
}

/// <summary>
/// The items among a command's arguments: from <see cref="First"/> on or, with a <see cref="Keyword"/>, after the
/// first argument from <see cref="First"/> on that is the keyword (BF.INSERT's ITEMS, after its options).
/// </summary>
internal sealed record ItemArguments(ItemUse Use, int First, byte[]? Keyword = null)
{
    public static readonly ItemArguments None = new(ItemUse.None, 0);

    /// <summary>How many items <paramref name="arguments"/> hold; 0 for a command without items. Allocates nothing.</summary>
    public int Count(CommandArguments arguments) => Use == ItemUse.None ? 0 : arguments.Count - Start(arguments);

    /// <summary>The index of the first item; the argument count when there is none.</summary>
    private int Start(CommandArguments arguments)
    {
        if (Keyword is null)
        {
            return Math.Min(First, arguments.Count);
        }

        for (int i = First; i < arguments.Count; i++)
        {
            if (Ascii.EqualsIgnoreCase(arguments[i], Keyword))
            {
                return i + 1;
            }
        }

        return arguments.Count;
    }
}

/// <summary>Where a command's keys are, for COMMAND's first key, last key and step.</summary>
internal enum CommandKeys
{
    None,
    First,
    All,
}

/// <summary>Redis 7's command flags that apply here, in the order COMMAND lists them.</summary>
[Flags]
internal enum CommandFlags
{
    None = 0,
    Write = 1,
    ReadOnly = 2,
    DenyOom = 4,
    Admin = 8,
    NoScript = 16,
    Loading = 32,
    Stale = 64,
    Fast = 128,
    NoAuth = 256,
    AllowBusy = 512,
}
