using System.Text.Json;

namespace EventFilter.Hosting.Tests.Monitoring;

/// <summary>
/// Every metric the alerting rules, their tests and the dashboard name is one docs/telemetry.md lists, under the name
/// the Prometheus exporter gives it, and every label they match on is a tag of it with a documented value. Renaming an
/// instrument or a tag value in the docs (as its code changes) thus fails here, not in production, where a rule on a
/// name no one exports never fires.
/// </summary>
public sealed class MetricNamesTests
{
    // Labels every series has: the scrape's, and the exporter's meter name.
    private static readonly string[] ScrapeLabels = ["job", "instance", "otel_scope_name"];

    private static readonly IReadOnlyList<DocumentedInstrument> Documented = DocumentedMetrics.Read(File.ReadAllText(MonitoringFiles.Telemetry));

    private static readonly Dictionary<string, DocumentedInstrument> ByPrometheusName =
        Documented.SelectMany(instrument => instrument.PrometheusNames().Select(name => (name, instrument))).ToDictionary(p => p.name, p => p.instrument, StringComparer.Ordinal);

    public static TheoryData<string> Files() => [MonitoringFiles.RulesName, MonitoringFiles.TestsName, Path.GetFileName(MonitoringFiles.Dashboard)];

    [Theory]
    [MemberData(nameof(Files))]
    public void Every_metric_named_is_one_the_telemetry_page_lists(string file)
    {
        string[] names = [.. PromQlText.MetricNames(QueryText(file)).Distinct().Order(StringComparer.Ordinal)];

        Assert.True(names.Length >= 12, $"{file}: only {names.Length} metric names found ({string.Join(", ", names)}): is the scan still finding them?");
        string[] unknown = [.. names.Where(name => !ByPrometheusName.ContainsKey(name))];
        Assert.True(unknown.Length == 0, $"{file} names metrics docs/telemetry.md does not list (as the exporter names them): {string.Join(", ", unknown)}");
    }

    [Theory]
    [MemberData(nameof(Files))]
    public void Every_label_matched_is_a_documented_tag_with_a_documented_value(string file)
    {
        var wrong = new List<string>();
        foreach (Selector selector in PromQlText.Selectors(QueryText(file)))
        {
            if (!ByPrometheusName.TryGetValue(selector.Metric, out DocumentedInstrument? instrument))
            {
                continue; // reported by the test above
            }

            foreach ((string label, string value) in selector.Matchers.Where(m => !ScrapeLabels.Contains(m.Label)))
            {
                string[] values = instrument.Values(label);
                if (!instrument.Labels().Contains(label))
                {
                    wrong.Add($"{selector.Metric}: {label} is not a tag of {instrument.Name}");
                }
                else if (values.Length > 0)
                {
                    // A regex's alternatives, each a literal value; a dashboard variable ($job) is not checked.
                    wrong.AddRange(value.Split('|').Where(v => !v.Contains('$', StringComparison.Ordinal) && !values.Contains(v)).Select(v => $"{selector.Metric}: {label}=\"{v}\" is not among {string.Join(", ", values)}"));
                }
            }
        }

        Assert.True(wrong.Count == 0, $"{file}:\n{string.Join('\n', wrong.Distinct())}");
    }

    [Theory]
    [InlineData("eventfilter.adds", "eventfilter_adds_total")]
    [InlineData("eventfilter.fill_ratio", "eventfilter_fill_ratio")]
    [InlineData("eventfilter.size", "eventfilter_size_bytes")]
    [InlineData("eventfilter.flush.bytes", "eventfilter_flush_bytes_total")]
    [InlineData("eventfilter.flush.duration", "eventfilter_flush_duration_seconds_bucket")]
    [InlineData("eventfilter.log.read_lag.duration", "eventfilter_log_read_lag_duration_seconds")]
    [InlineData("eventfilter.checkpoint.lag", "eventfilter_checkpoint_lag")]
    [InlineData("eventlog.log.end", "eventlog_log_end_bytes")]
    [InlineData("eventfilter.postgresql.safe_end.held", "eventfilter_postgresql_safe_end_held_seconds")]
    [InlineData("eventfilter.postgresql.errors", "eventfilter_postgresql_errors_total")]
    public void Documented_instruments_map_to_the_names_the_exporter_writes(string instrument, string prometheusName)
    {
        // Each pair as the sample server's /metrics (or, for PostgreSQL's, the same exporter version) writes it.
        Assert.Contains(prometheusName, Assert.Single(Documented, i => i.Name == instrument).PrometheusNames());
    }

    [Fact]
    public void The_dashboard_asks_for_a_Prometheus_data_source_and_every_query_uses_it()
    {
        using JsonDocument dashboard = JsonDocument.Parse(File.ReadAllText(MonitoringFiles.Dashboard));
        JsonElement variable = Assert.Single(dashboard.RootElement.GetProperty("templating").GetProperty("list").EnumerateArray(), v => v.GetProperty("type").GetString() == "datasource");
        Assert.Equal("prometheus", variable.GetProperty("query").GetString());
        string reference = "${" + variable.GetProperty("name").GetString() + "}";

        JsonElement[] panels = [.. Panels(dashboard.RootElement).Where(p => p.GetProperty("type").GetString() != "row")];
        Assert.NotEmpty(panels);
        Assert.All(panels, panel => Assert.Equal(reference, panel.GetProperty("datasource").GetProperty("uid").GetString()));
        Assert.All(panels.SelectMany(p => p.GetProperty("targets").EnumerateArray()), target => Assert.Equal(reference, target.GetProperty("datasource").GetProperty("uid").GetString()));
    }

    // The rules and their tests as they are; of the dashboard, its queries (targets and templating variables).
    private static string QueryText(string file)
    {
        string text = File.ReadAllText(Path.Combine(MonitoringFiles.Directory, file));
        if (!file.EndsWith(".json", StringComparison.Ordinal))
        {
            return text;
        }

        using JsonDocument dashboard = JsonDocument.Parse(text);
        return string.Join('\n', Strings(dashboard.RootElement, ["expr", "query", "definition"]));
    }

    private static IEnumerable<string> Strings(JsonElement element, string[] properties) => element.ValueKind switch
    {
        JsonValueKind.Object => element.EnumerateObject().SelectMany(p => p.Value.ValueKind == JsonValueKind.String && properties.Contains(p.Name) ? [p.Value.GetString()!] : Strings(p.Value, properties)),
        JsonValueKind.Array => element.EnumerateArray().SelectMany(e => Strings(e, properties)),
        _ => [],
    };

    private static IEnumerable<JsonElement> Panels(JsonElement dashboard) =>
        dashboard.GetProperty("panels").EnumerateArray().SelectMany(p => p.TryGetProperty("panels", out JsonElement inner) ? inner.EnumerateArray().Prepend(p) : [p]);
}
