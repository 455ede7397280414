namespace EventFilter.Daemon.Tests.Conformance;

/// <summary>What a command does to the items of its key, which decides how its replies may differ by false positives.</summary>
public enum ItemRole
{
    /// <summary>Neither adds nor looks up items: replies must match exactly (after the known differences).</summary>
    None,

    /// <summary>BF.ADD, BF.MADD, BF.INSERT: an answer of 0 for an item never added is a false positive.</summary>
    Add,

    /// <summary>BF.EXISTS, BF.MEXISTS: an answer of 1 for an item never added is a false positive.</summary>
    Lookup,
}

/// <summary>One generated command: its arguments as sent, the key it names and the items it adds or looks up, in reply order.</summary>
public sealed record ConformanceCommand(string[] Arguments, ItemRole Role, string? Key, string[] Items)
{
    /// <summary>The command's name in upper case, as the table of known differences names it.</summary>
    public string Name => Arguments.Length == 0 ? "" : Arguments[0].ToUpperInvariant();

    /// <summary>Whether it may change a key, so that a difference in its replies may leave the two servers' keys apart.</summary>
    public bool Writes => Name is "BF.RESERVE" or "BF.ADD" or "BF.MADD" or "BF.INSERT" or "DEL";

    public override string ToString() => string.Join(' ', Arguments.Select(a => a.Length == 0 || a.Contains(' ', StringComparison.Ordinal) ? $"\"{a}\"" : a));
}
