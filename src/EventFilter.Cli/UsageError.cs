using System.CommandLine;
using EventFilter.Cli.Commands.Client;

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

    private static string CommandPath(Command command)
    {
        string root = ClientCommandTree.IsClientCommand(command) ? $"{CommandTree.ToolName} -s SOCKET" : CommandTree.ToolName;
        return command.Name == CommandTree.ToolName ? root : $"{root} {command.Name}";
    }
}
