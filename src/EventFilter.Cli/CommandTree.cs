using System.CommandLine;
using System.CommandLine.Help;
using EventFilter.Cli.Commands;
using EventFilter.Cli.Commands.Client;

namespace EventFilter.Cli;

/// <summary>
/// The tool's commands. Built per run, so each command's action writes to that run's console. A socket option
/// (-s/--socket) anywhere before a "--" selects the client commands, which talk to a running eventfilterd
/// (ClientCommandTree); without one, the offline commands work on files.
/// </summary>
internal static class CommandTree
{
    /// <summary>The command operators type; also the .NET tool's command name.</summary>
    public const string ToolName = "eventfilter";

    public static Command Build(CliConsole console, IReadOnlyList<string> args)
    {
        if (ClientCommandTree.IsClientMode(args))
        {
            return ClientCommandTree.Build(console);
        }

        // A named root rather than RootCommand, whose name would be the host executable's (testhost, dotnet, ...).
        var root = new Command(ToolName, "Inspect, verify, repair and size EventFilter stream-existence filter files, offline. Only 'repair' writes. With -s SOCKET, talk to a running eventfilterd instead: run 'eventfilter -s SOCKET --help'.")
        {
            InspectCommand.Create(console),
            VerifyCommand.Create(console),
            RepairCommand.Create(console),
            CheckCommand.Create(console),
            SizingCommand.Create(console),
        };
        root.Options.Add(new HelpOption());
        root.Options.Add(new VersionOption());
        return root;
    }
}
