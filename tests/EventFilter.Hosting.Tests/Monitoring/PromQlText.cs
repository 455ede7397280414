using System.Text.RegularExpressions;

namespace EventFilter.Hosting.Tests.Monitoring;

/// <summary>One selector in a query: a metric name and its label matchers (<c>label op "value"</c>).</summary>
internal sealed record Selector(string Metric, IReadOnlyList<(string Label, string Value)> Matchers);

/// <summary>
/// The EventFilter and EventLog metric names, and their label matchers, in PromQL text: rule expressions, unit-test
/// series, dashboard queries. Not a parser, but enough for text this folder writes: a metric name is a word starting
/// <c>eventfilter_</c> or <c>eventlog_</c> that is not a label (in braces, in a <c>by (...)</c> clause, in a
/// template, or a YAML key).
/// </summary>
internal static partial class PromQlText
{
    public static IEnumerable<string> MetricNames(string text)
    {
        string words = Grouping().Replace(Braces().Replace(Template().Replace(text, " "), " "), " ");
        return YamlKey().Replace(words, " ") is var rest ? OurMetric().Matches(rest).Select(m => m.Value) : [];
    }

    public static IEnumerable<Selector> Selectors(string text) =>
        SelectorWithMetric().Matches(Template().Replace(text, " ")).Select(m => new Selector(
            m.Groups["metric"].Value,
            [.. Matcher().Matches(m.Groups["matchers"].Value).Select(x => (x.Groups["label"].Value, x.Groups["value"].Value))]));

    // Go templates in annotations ({{ $labels.instance }}) and Grafana legends ({{eventfilter_answer}}).
    [GeneratedRegex(@"\{\{.*?\}\}")]
    private static partial Regex Template();

    [GeneratedRegex(@"\{[^{}]*\}")]
    private static partial Regex Braces();

    [GeneratedRegex(@"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)")]
    private static partial Regex Grouping();

    [GeneratedRegex(@"\b\w+:(?=\s)")]
    private static partial Regex YamlKey();

    [GeneratedRegex(@"\b(?:eventfilter|eventlog)_\w+")]
    private static partial Regex OurMetric();

    [GeneratedRegex(@"\b(?<metric>(?:eventfilter|eventlog)_\w+)\{(?<matchers>[^{}]*)\}")]
    private static partial Regex SelectorWithMetric();

    [GeneratedRegex(@"(?<label>\w+)\s*(?:=~|!~|!=|=)\s*""(?<value>[^""]*)""")]
    private static partial Regex Matcher();
}
