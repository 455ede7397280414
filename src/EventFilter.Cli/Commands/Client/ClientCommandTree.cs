using System.CommandLine;
using System.CommandLine.Help;

namespace EventFilter.Cli.Commands.Client;

/// <summary>
/// `eventfilter -s SOCKET COMMAND`: the client of a running eventfilterd. Each command is one or a few RESP requests
/// over the daemon's Unix socket (docs/daemon.md); the tool does not need the daemon's program or its files.
/// </summary>
internal static class ClientCommandTree
{
    private static readonly string[] SocketSpellings = ["-s", "--socket"];

    /// <summary>True when the arguments name a socket before any "--": the client commands apply, not the offline ones.</summary>
    public static bool IsClientMode(IReadOnlyList<string> args)
    {
        foreach (string arg in args)
        {
            if (arg == "--")
            {
                return false;
            }

            // -s PATH, -s=PATH, -s:PATH and the same for --socket: the spellings System.CommandLine accepts.
            foreach (string spelling in SocketSpellings)
            {
                if (arg == spelling || (arg.Length > spelling.Length && arg.StartsWith(spelling, StringComparison.Ordinal) && arg[spelling.Length] is '=' or ':'))
                {
                    return true;
                }
            }
        }

        return false;
    }

    /// <summary>True for the client root and its commands, whose usage line needs the socket option.</summary>
    public static bool IsClientCommand(Command command)
    {
        Command root = command;
        while (root.Parents.OfType<Command>().FirstOrDefault() is { } parent)
        {
            root = parent;
        }

        return root.Options.Any(option => option.Name == SocketSpellings[1]);
    }

    public static Command Build(CliConsole console)
    {
        var session = new DaemonSession(console);
        var root = new Command(CommandTree.ToolName, "Talk to a running eventfilterd over its Unix socket: ping it, create, fill, query, list, drop, back up and restore its named filters. Exit 0 done, 2 bad arguments, 3 the daemon could not be reached, 4 it refused.")
        {
            PingCommand.Create(session, console),
            CreateCommand.Create(session),
            AddCommand.Create(session, multiple: false),
            AddCommand.Create(session, multiple: true),
            CheckItemsCommand.Create(session, multiple: false),
            CheckItemsCommand.Create(session, multiple: true),
            InfoCommand.Create(session),
            ListCommand.Create(session),
            StatsCommand.Create(session),
            DropCommand.Create(session),
            BackupCommand.Create(session, console),
            RestoreCommand.Create(session, console),
        };
        root.Options.Add(session.Socket);
        root.Options.Add(session.Timeout);
        root.Options.Add(session.PasswordFile);
        root.Options.Add(new HelpOption());
        root.Options.Add(new VersionOption());
        return root;
    }
}
