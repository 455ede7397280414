using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports;

/// <summary>The answers of `check`, one per name, in the order given.</summary>
/// <param name="Path">The filter file.</param>
/// <param name="MismatchedLines">Lines whose checksum failed; when above zero every answer is "maybe".</param>
/// <param name="Results">One answer per name.</param>
internal sealed record CheckReport(string Path, long MismatchedLines, IReadOnlyList<NameAnswer> Results)
{
    public void WriteText(TextWriter output)
    {
        foreach (NameAnswer answer in Results)
        {
            output.WriteLine(TextFormat.Answer(answer.Answer, answer.Name));
        }
    }
}

/// <summary>One name's answer.</summary>
/// <param name="Name">The stream name as given.</param>
/// <param name="MightExist">False only when the stream was definitely never written.</param>
/// <param name="Answer"><see cref="Maybe"/> or <see cref="DefinitelyNot"/>: the spelling of the eventfilter.answer metric tag.</param>
internal sealed record NameAnswer(string Name, bool MightExist, string Answer)
{
    public const string Maybe = "maybe";
    public const string DefinitelyNot = "definitely-not";

    public static NameAnswer For(string name, bool mightExist) => new(name, mightExist, mightExist ? Maybe : DefinitelyNot);
}
