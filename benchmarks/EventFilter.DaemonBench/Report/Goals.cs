namespace EventFilter.DaemonBench.Report;

/// <summary>
/// The goals. Every row: ahead of Redis, in both modes. Pinned mode only: single add and single check at most
/// 15 µs, batch-128 at most 0.3 µs per item. Any mode: startup at most 150 ms, RSS with one filled 1M filter at most 40 MB.
/// </summary>
internal static class Goals
{
    public static (double? Limit, string Text) For(string row, bool pinned) => row switch
    {
        "single add" or "single check" when pinned => (15_000, "≤ 15 µs and ahead of Redis"),
        "batch-128 add" or "batch-128 check" when pinned => (300, "≤ 0.3 µs/item and ahead of Redis"),
        "cold startup" or "restart startup" => (150, "≤ 150 ms and ahead of Redis"),
        "RSS, one filled 1M filter" => (40, "≤ 40 MB and ahead of Redis"),
        _ => (null, "ahead of Redis"),
    };
}
