using System.CommandLine;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports;

namespace EventFilter.Cli.Commands;

/// <summary>`check FILE NAME...`: "definitely not" or "maybe" per stream name. Read-only.</summary>
internal static class CheckCommand
{
    public static Command Create(CliConsole console)
    {
        Argument<string> file = CommonSymbols.FilterFile();
        var names = new Argument<string[]>("name")
        {
            Description = "Stream names to look up; put '--' before a name that starts with '-'.",
            Arity = ArgumentArity.OneOrMore,
        };
        Option<bool> json = CommonSymbols.Json();
        var command = new Command("check", "Answer \"definitely not\" or \"maybe\" for each stream name. Read-only. Exit 0, or 1 when corrupted lines forced every answer to \"maybe\".")
        {
            file,
            names,
            json,
        };
        command.SetAction(parsed => Run(console, parsed.GetValue(file)!, parsed.GetValue(names)!, parsed.GetValue(json)));
        return command;
    }

    private static int Run(CliConsole console, string path, string[] names, bool json)
    {
        using FilterFile filter = FilterFile.OpenExisting(path);

        // A mismatched line may have lost bits, so its "definitely not" could be a false negative. Without a way to
        // tell which line a name lives on, the only safe answer for every name is then "maybe".
        VerificationResult integrity = filter.Verify(repair: false);
        bool trustworthy = integrity.MismatchedLines == 0;
        NameAnswer[] answers = Array.ConvertAll(names, name => NameAnswer.For(name, !trustworthy || filter.MightExist(name)));
        var report = new CheckReport(path, integrity.MismatchedLines, answers);
        int exitCode = ExitCodes.Success;
        if (!trustworthy)
        {
            console.Error.WriteLine($"{CommandTree.ToolName}: warning: {TextFormat.Count(integrity.MismatchedLines)} lines of '{path}' fail their checksum, so every answer is \"maybe\"; run 'eventfilter repair {path}' with the server stopped.");
            exitCode = ExitCodes.Corrupted;
        }

        if (json)
        {
            JsonOutput.Write(console.Out, report, CliJsonContext.Default.CheckReport, exitCode);
        }
        else
        {
            report.WriteText(console.Out);
        }

        return exitCode;
    }
}
