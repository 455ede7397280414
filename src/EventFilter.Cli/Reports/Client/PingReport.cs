using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports.Client;

/// <summary>`ping`: the daemon answered, and how long the round trip took (connect not included).</summary>
internal sealed record PingReport(string Socket, string Reply, double RoundTripMilliseconds) : IClientReport
{
    public void WriteText(TextWriter output) =>
        output.WriteLine($"{Reply} from eventfilterd at {Socket} in {TextFormat.Fixed(RoundTripMilliseconds, 2)} ms");
}
