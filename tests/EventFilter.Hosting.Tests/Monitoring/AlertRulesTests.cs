using System.Text.Json;
using System.Text.RegularExpressions;

namespace EventFilter.Hosting.Tests.Monitoring;

/// <summary>
/// samples/Monitoring/eventfilter.rules.yml is valid Prometheus (`promtool check rules`) and passes its own unit tests
/// (`promtool test rules eventfilter.rules.test.yml`); and those tests have teeth: a rule that stops firing, or fires
/// for an episode shorter than its <c>for:</c>, fails them.
/// </summary>
public sealed partial class AlertRulesTests : IDisposable
{
    private readonly TempDirectory _copy = new();

    public void Dispose() => _copy.Dispose();

    public static TheoryData<string> Alerts() => [.. AlertName().Matches(File.ReadAllText(MonitoringFiles.Rules)).Select(m => m.Groups[1].Value).Distinct()];

    [Fact]
    public void The_rules_pass_promtool_check()
    {
        (int exitCode, string output) = Promtool.Run(MonitoringFiles.Directory, "check", "rules", MonitoringFiles.RulesName);
        Assert.True(exitCode == 0, output);
        Assert.Contains("SUCCESS", output, StringComparison.Ordinal);
    }

    [Fact]
    public void The_rules_pass_their_promtool_unit_tests()
    {
        (int exitCode, string output) = Promtool.Run(MonitoringFiles.Directory, "test", "rules", MonitoringFiles.TestsName);
        Assert.True(exitCode == 0, output);
        Assert.Contains("SUCCESS", output, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Alerts))]
    public void Each_alert_has_a_test_that_sees_it_fire(string alert)
    {
        // Renamed, the alert still fires, but under a name no test case asks about: a case that expects it fails.
        string rules = File.ReadAllText(MonitoringFiles.Rules);
        string renamed = rules.Replace($"- alert: {alert}\n", $"- alert: {alert}Renamed\n", StringComparison.Ordinal);
        Assert.NotEqual(rules, renamed);

        (int exitCode, string output) = RunTestsOn(renamed);

        Assert.True(exitCode != 0, $"the unit tests pass with {alert} never firing: add a case where it fires\n{output}");
        Assert.Contains($"alertname: {alert},", output, StringComparison.Ordinal);
    }

    [Fact]
    public void A_held_end_shorter_than_the_warnings_for_is_tested_not_to_fire()
    {
        // Without its for:, the warning fires on app-2's end held past the threshold for one reading only.
        string rules = File.ReadAllText(MonitoringFiles.Rules);
        Match warning = HeldWarningFor().Match(rules);
        Assert.True(warning.Success, "no EventFilterPostgresSafeEndHeld rule with severity warning and a for: of 1m");
        string withoutFor = rules.Remove(warning.Groups["for"].Index, warning.Groups["for"].Length).Insert(warning.Groups["for"].Index, "0m");

        (int exitCode, string output) = RunTestsOn(withoutFor);

        Assert.True(exitCode != 0, "the unit tests pass with the held-end warning firing at once\n" + output);
        Assert.Contains("alertname: EventFilterPostgresSafeEndHeld, time: 3m", output, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_dashboard_query_is_valid_PromQL()
    {
        // Grafana's variables filled in, each query becomes a recording rule, which `promtool check rules` parses.
        using JsonDocument dashboard = JsonDocument.Parse(File.ReadAllText(MonitoringFiles.Dashboard));
        string[] queries = [.. dashboard.RootElement.GetProperty("panels").EnumerateArray()
            .SelectMany(panel => panel.TryGetProperty("targets", out JsonElement targets) ? targets.EnumerateArray() : [])
            .Select(target => target.GetProperty("expr").GetString()!)];
        Assert.NotEmpty(queries);
        IEnumerable<string> rules = queries.Select((query, i) =>
            $"      - record: dashboard_query_{i}\n        expr: {JsonSerializer.Serialize(GrafanaVariable().Replace(query, m => m.Value == "$__rate_interval" ? "5m" : ".*"))}\n");
        File.WriteAllText(_copy.File("dashboard.rules.yml"), "groups:\n  - name: dashboard\n    rules:\n" + string.Concat(rules));

        (int exitCode, string output) = Promtool.Run(_copy.Path, "check", "rules", "dashboard.rules.yml");

        Assert.True(exitCode == 0, output);
        Assert.Contains($"SUCCESS: {queries.Length} rules found", output, StringComparison.Ordinal);
    }

    private (int ExitCode, string Output) RunTestsOn(string rules)
    {
        File.WriteAllText(_copy.File(MonitoringFiles.RulesName), rules);
        File.Copy(MonitoringFiles.Tests, _copy.File(MonitoringFiles.TestsName));
        return Promtool.Run(_copy.Path, "test", "rules", MonitoringFiles.TestsName);
    }

    [GeneratedRegex(@"\$\w+")]
    private static partial Regex GrafanaVariable();

    [GeneratedRegex(@"^\s*- alert: (\w+)$", RegexOptions.Multiline)]
    private static partial Regex AlertName();

    [GeneratedRegex(@"- alert: EventFilterPostgresSafeEndHeld\n(?:(?!- alert:)[^\n]*\n)*?\s*for: (?<for>1m)\n\s*labels:\n\s*severity: warning\n")]
    private static partial Regex HeldWarningFor();
}
