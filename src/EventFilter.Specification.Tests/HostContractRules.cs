namespace EventFilter.Specification;

/// <summary>
/// The messages a failed specification test gives: each names the rule that the host (docs/design.md, "Host contract")
/// or its log (docs/design.md, "The log's rules") broke, what the kit saw, and what to do instead.
/// </summary>
internal static class HostContractRules
{
    public const string Rule1 = "Rule 1 (open the filter before the first add)";
    public const string Rule2 = "Rule 2 (add every record, with the position just past it)";
    public const string Rule3 = "Rule 3 (checkpoint only what the adds reached)";
    public const string Rule4 = "Rule 4 (tell the filter when the log is cut)";
    public const string Rule5 = "Rule 5 (stop appending before the filter stops)";
    public const string LogEnd = "Log rule 1 (EndPosition is honest)";
    public const string LogReads = "Log rule 2 (ReadAsync returns every record)";
    public const string LogPositions = "Log rule 3 (positions increase, within EndPosition)";
    public const string Processes = "Several processes (each process's filter, following the log, holds every record below its read position)";

    public static string Of(HostContractViolation violation) => violation switch
    {
        HostContractViolation.LateAdd => Rule3,
        HostContractViolation.TruncationNotReported => Rule4,
        HostContractViolation.AddAfterDispose => Rule5,
        _ => violation.ToString(),
    };

    public static string Of(LogContractViolation violation) => violation switch
    {
        LogContractViolation.ShortRead => LogReads,
        LogContractViolation.EndMovedBack => LogEnd,
        LogContractViolation.ReadPastEnd => LogPositions,
        LogContractViolation.PositionNotAdvancing => LogPositions,
        _ => violation.ToString(),
    };
}
