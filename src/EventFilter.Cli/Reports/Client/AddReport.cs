using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports.Client;

/// <summary>`add`, `madd`: per item, whether it was added (new) or may have been there already.</summary>
/// <param name="Results">One per item answered, in order; fewer than asked when the daemon stopped (see <paramref name="Error"/>).</param>
/// <param name="Error">Why the daemon stopped before the rest (a full non-scaling filter); null when every item was answered.</param>
internal sealed record AddReport(string Socket, string Name, IReadOnlyList<ItemAdded> Results, string? Error) : IClientReport
{
    public void WriteText(TextWriter output)
    {
        foreach (ItemAdded result in Results)
        {
            output.WriteLine(TextFormat.Answer(result.Answer, result.Item));
        }
    }
}

/// <summary>One item's answer to an add.</summary>
/// <param name="Added">True when the item was definitely new and is now in; false when the filter may have held it already.</param>
/// <param name="Answer"><see cref="New"/> or <see cref="MaybeExisted"/>.</param>
internal sealed record ItemAdded(string Item, bool Added, string Answer)
{
    public const string New = "added";
    public const string MaybeExisted = "maybe-existed";

    public static ItemAdded For(string item, bool added) => new(item, added, added ? New : MaybeExisted);
}
