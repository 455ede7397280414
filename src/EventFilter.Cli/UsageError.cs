using System.CommandLine;

namespace EventFilter.Cli;

/// <summary>Reports command-line mistakes: the parser's messages, then where to find the usage, and exit code 2.</summary>
internal static class UsageError
{
    public static int Report(ParseResult parsed, TextWriter error)
    {
        foreach (System.CommandLine.Parsing.ParseError problem in parsed.Errors)
        {
            error.WriteLine($"{CommandTree.ToolName}: usage error: {problem.Message}");
        }

        string command = CommandPath(parsed.CommandResult.Command);
        error.WriteLine($"Run '{command} --help' for usage.");
        return ExitCodes.Failure;
    }

    private static string CommandPath(Command command) =>
        command.Name == CommandTree.ToolName ? CommandTree.ToolName : $"{CommandTree.ToolName} {command.Name}";
}
