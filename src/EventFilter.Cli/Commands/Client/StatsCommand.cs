using System.CommandLine;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports.Client;

namespace EventFilter.Cli.Commands.Client;

/// <summary>`stats`: the daemon's INFO: its version, process id, log-sync mode and number of filters.</summary>
internal static class StatsCommand
{
    public static Command Create(DaemonSession session)
    {
        var command = new Command("stats", "Show the daemon's INFO: version, process id, log sync, number of filters.");
        session.SetAction(command, CliJsonContext.Default.StatsReport, async (_, daemon) =>
        {
            string info = (await daemon.CallExpectingSuccessAsync(["INFO"]).ConfigureAwait(false)).AsText();
            return StatsReport.Parse(daemon.SocketPath, info);
        });
        return command;
    }
}
