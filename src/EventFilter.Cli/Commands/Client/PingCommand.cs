using System.CommandLine;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports.Client;

namespace EventFilter.Cli.Commands.Client;

/// <summary>`ping`: PING, to see that the daemon is up and answering, and how fast.</summary>
internal static class PingCommand
{
    public static Command Create(DaemonSession session, CliConsole console)
    {
        var command = new Command("ping", "Check that eventfilterd answers (PING) and time the round trip.");
        session.SetAction(command, CliJsonContext.Default.PingReport, async (_, daemon) =>
        {
            long started = console.Time.GetTimestamp();
            string reply = (await daemon.CallExpectingSuccessAsync(["PING"]).ConfigureAwait(false)).AsText();
            return new PingReport(daemon.SocketPath, reply, console.Time.GetElapsedTime(started).TotalMilliseconds);
        });
        return command;
    }
}
