namespace EventFilter.Hosting.Telemetry;

/// <summary>The stable tag values of docs/telemetry.md; renaming one breaks dashboards.</summary>
internal static class TagValues
{
    public const string Open = "open";

    public const string CatchUp = "catch-up";

    public const string Checkpoint = "checkpoint";

    public const string LogRead = "log-read";

    public const string Started = "started";

    public const string Completed = "completed";

    public static string Of(HostContractViolation violation) => violation switch
    {
        HostContractViolation.LateAdd => "late-add",
        HostContractViolation.TruncationNotReported => "truncation-not-reported",
        HostContractViolation.AddAfterDispose => "add-after-dispose",
        _ => violation.ToString(),
    };

    public static string Of(LogContractViolation violation) => violation switch
    {
        LogContractViolation.ShortRead => "short-read",
        LogContractViolation.EndMovedBack => "end-moved-back",
        LogContractViolation.ReadPastEnd => "read-past-end",
        LogContractViolation.PositionNotAdvancing => "position-not-advancing",
        LogContractViolation.EndBehindAdds => "end-behind-adds",
        LogContractViolation.FollowerStalled => "follower-stalled",
        _ => violation.ToString(),
    };

    public static string Of(RebuildReason reason) => reason switch
    {
        RebuildReason.Missing => "missing",
        RebuildReason.InvalidHeader => "invalid-header",
        RebuildReason.WrongLength => "wrong-length",
        RebuildReason.TooCorrupted => "too-corrupted",
        RebuildReason.AllOnesLines => "all-ones-lines",
        RebuildReason.Requested => "requested",
        _ => reason.ToString(),
    };
}
