namespace EventFilter.Cli;

/// <summary>
/// Where the tool writes and how it tells time. Results go to <see cref="Out"/>; errors, warnings and progress go to
/// <see cref="Error"/>, so that `--json` output on stdout stays parseable while a long verify reports progress.
/// </summary>
/// <param name="Out">Results: text or one JSON object.</param>
/// <param name="Error">Errors, warnings and progress.</param>
/// <param name="ErrorIsTerminal">True draws a progress bar redrawn in place; false writes plain progress lines for logs.</param>
/// <param name="Time">The clock progress rates and ETAs are measured with; tests pass a manual one.</param>
internal sealed record CliConsole(TextWriter Out, TextWriter Error, bool ErrorIsTerminal, TimeProvider Time)
{
    /// <summary>The process's own stdout and stderr on <paramref name="time"/>; a bar only when stderr is a terminal.</summary>
    public static CliConsole ForProcess(TimeProvider time) => new(Console.Out, Console.Error, !Console.IsErrorRedirected, time);

    /// <summary>Writers that are not a terminal, on <paramref name="time"/>: what tests and embedders want.</summary>
    public static CliConsole ForWriters(TextWriter output, TextWriter error, TimeProvider time) => new(output, error, ErrorIsTerminal: false, time);
}
