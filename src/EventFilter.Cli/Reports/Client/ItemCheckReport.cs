using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports.Client;

/// <summary>`check`, `mcheck`: "maybe" or "definitely not" per item, in the order given.</summary>
internal sealed record ItemCheckReport(string Socket, string Name, IReadOnlyList<ItemAnswer> Results) : IClientReport
{
    public void WriteText(TextWriter output)
    {
        foreach (ItemAnswer result in Results)
        {
            output.WriteLine(TextFormat.Answer(result.Answer, result.Item));
        }
    }
}

/// <summary>One item's answer to a lookup; the same words as the offline `check` (<see cref="NameAnswer"/>).</summary>
/// <param name="MightExist">False only when the item was definitely never added.</param>
internal sealed record ItemAnswer(string Item, bool MightExist, string Answer)
{
    public static ItemAnswer For(string item, bool mightExist) => new(item, mightExist, mightExist ? NameAnswer.Maybe : NameAnswer.DefinitelyNot);
}
