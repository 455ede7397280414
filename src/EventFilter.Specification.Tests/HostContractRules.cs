namespace EventFilter.Specification;

/// <summary>
/// The messages a failed specification test gives: each names the rule of the host contract (docs/design.md, "Host
/// contract") that the host broke, what the kit saw, and what the host must do instead.
/// </summary>
internal static class HostContractRules
{
    public const string Rule1 = "Rule 1 (open the filter before the first add)";
    public const string Rule2 = "Rule 2 (add every record, with the position just past it)";
    public const string Rule3 = "Rule 3 (checkpoint only what the adds reached)";
    public const string Rule4 = "Rule 4 (tell the filter when the log is cut)";
    public const string Rule5 = "Rule 5 (stop appending before the filter stops)";
    public const string Log = "The log (IStreamNameLog)";

    public static string Of(HostContractViolation violation) => violation switch
    {
        HostContractViolation.LateAdd => Rule3,
        HostContractViolation.TruncationNotReported => Rule4,
        HostContractViolation.AddAfterDispose => Rule5,
        _ => violation.ToString(),
    };
}
