using System.CommandLine;
using EventFilter.Cli.Commands.Client;
using EventFilter.Cli.Output;

namespace EventFilter.Cli;

/// <summary>
/// Reports command-line mistakes: the parser's messages, then where to find the usage, and exit code 2; with
/// <paramref name="json"/>, also a JSON error object on stdout carrying the same messages.
/// </summary>
internal static class UsageError
{
    public static int Report(ParseResult parsed, CliConsole console, bool json)
    {
        var messages = new List<string>();
        foreach (System.CommandLine.Parsing.ParseError problem in parsed.Errors)
        {
            messages.Add($"usage error: {problem.Message}");
            console.Error.WriteLine($"{CommandTree.ToolName}: usage error: {problem.Message}");
        }

        string command = CommandPath(parsed.CommandResult.Command);
        console.Error.WriteLine($"Run '{command} --help' for usage.");
        if (json)
        {
            JsonOutput.WriteError(console.Out, string.Join(" ", messages), ExitCodes.Failure);
        }

        return ExitCodes.Failure;
    }

    private static string CommandPath(Command command)
    {
        string root = ClientCommandTree.IsClientCommand(command) ? $"{CommandTree.ToolName} -s SOCKET" : CommandTree.ToolName;
        return command.Name == CommandTree.ToolName ? root : $"{root} {command.Name}";
    }
}
