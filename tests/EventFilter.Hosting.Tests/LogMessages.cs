namespace EventFilter.Hosting.Tests;

/// <summary>The hosting package's log lines as a test asks for them: by stable event id.</summary>
public static class LogMessages
{
    public const string Category = "EventFilter";

    /// <summary>The messages the filter logged with event id <paramref name="eventId"/>.</summary>
    public static IEnumerable<string> Messages(this FakeLogCollector logs, int eventId) =>
        logs.GetSnapshot().Where(r => r.Id.Id == eventId && r.Category == Category).Select(r => r.Message);
}
