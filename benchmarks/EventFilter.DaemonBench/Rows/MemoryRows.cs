namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// What each long-lived server's memory did over the mode's rows: its peak resident set (the kernel's high-water
/// mark, VmHWM, so no sample can miss the peak) and its resident set once every client but the measuring connection
/// has left and the server has had a few seconds to give memory back. Run last, after the concurrent and scale rows.
/// </summary>
internal static class MemoryRows
{
    // eventfilterd trims after a burst once its connections go quiet (docs/daemon-design.md, "Memory"); Redis frees as it goes.
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(3);

    public static void Run(Bench bench)
    {
        bench.Row("peak RSS over the rows", "MB", higherIsBetter: false, side => new(side.Server.PeakResidentKilobytes() / 1024.0));
        if (bench.Wanted("RSS after the clients left"))
        {
            Thread.Sleep(Settle);
        }

        bench.Row("RSS after the clients left", "MB", higherIsBetter: false, side => new(side.Server.ResidentKilobytes() / 1024.0));
    }
}
