namespace EventFilter.Daemon.Commands;

/// <summary>
/// What COMMAND reports of a command, in Redis 7's terms, and how it runs: its name (<c>container|sub</c> for a
/// subcommand), the argument counts it takes (the name included; Redis's arity is <see cref="Arity"/>), its flags,
/// where its keys are, its handler, and its subcommands (CLIENT's, CONFIG's, COMMAND's).
/// </summary>
internal sealed record CommandSpec(string Name, int MinArgs, int MaxArgs, CommandFlags Flags, CommandKeys Keys, Action<CommandContext> Run, CommandSpec[] Subcommands)
{
    /// <summary>The name as clients send it, for matching in any case.</summary>
    public byte[] Bytes { get; } = System.Text.Encoding.ASCII.GetBytes(Name[(Name.IndexOf('|', StringComparison.Ordinal) + 1)..]);

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
            if (System.Text.Ascii.EqualsIgnoreCase(name, subcommand.Bytes))
            {
                return subcommand;
            }
        }

        return null;
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
