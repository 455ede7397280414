namespace EventFilter.Hosting.Tests.Monitoring;

/// <summary>samples/Monitoring in the repository the tests were built from: the alerting rules, their tests, the dashboard.</summary>
internal static class MonitoringFiles
{
    public const string RulesName = "eventfilter.rules.yml";
    public const string TestsName = "eventfilter.rules.test.yml";

    public static string Directory { get; } = Path.Combine(RepositoryFiles.Root, "samples", "Monitoring");

    public static string Rules => Path.Combine(Directory, RulesName);

    public static string Tests => Path.Combine(Directory, TestsName);

    public static string Dashboard => Path.Combine(Directory, "eventfilter-dashboard.json");

    public static string Telemetry => Path.Combine(RepositoryFiles.Root, "docs", "telemetry.md");
}
