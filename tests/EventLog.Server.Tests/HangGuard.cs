namespace EventLog.Server.Tests;

/// <summary>
/// How long a test waits for a condition (a server listening, the filter ready, a checkpoint, a process exiting)
/// before it calls it a hang. Far beyond what a loaded 2-core machine needs, so it only ever turns a hang into a
/// failure and never decides a pass: the tests wait on the condition itself, not on time.
/// </summary>
internal static class HangGuard
{
    public static readonly TimeSpan Limit = TimeSpan.FromMinutes(2);
}
