using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using EventLog.Streams;
using Microsoft.Extensions.Primitives;

namespace EventLog.Server.Api;

/// <summary>
/// The query parameters: <c>expectedVersion</c> on appends, <c>from</c> and <c>count</c> on reads. Each is given at
/// most once; anything but the accepted forms is a 400 naming the parameter, the value and what is accepted.
/// </summary>
internal static class QueryParameters
{
    public const string ExpectedVersionName = "expectedVersion";
    public const string FromName = "from";
    public const string CountName = "count";

    private const string ExpectedVersionAccepted = "'any', 'no-stream', 'exists', or the stream's last event number (0 or more)";

    /// <summary><c>expectedVersion</c>: <c>any</c> (the default), <c>no-stream</c>, <c>exists</c>, or an event number.</summary>
    public static bool TryReadExpectedVersion(IQueryCollection query, out ExpectedVersion expected, [NotNullWhen(false)] out IResult? problem)
    {
        expected = ExpectedVersion.Any;
        if (!TrySingle(query, ExpectedVersionName, out string? text, out problem) || text is null)
        {
            return problem is null;
        }

        ExpectedVersion? parsed = text.ToUpperInvariant() switch
        {
            "ANY" => ExpectedVersion.Any,
            "NO-STREAM" => ExpectedVersion.NoStream,
            "EXISTS" => ExpectedVersion.StreamExists,
            _ => TryParseWholeNumber(text, out long number) ? ExpectedVersion.Exact(number) : null,
        };
        if (parsed is null)
        {
            problem = Problems.InvalidQuery($"{ExpectedVersionName} is '{text}'. Accepted: {ExpectedVersionAccepted}.");
            return false;
        }

        expected = parsed.Value;
        return true;
    }

    /// <summary>A whole number from <paramref name="min"/> to <paramref name="max"/>; <paramref name="fallback"/> when absent.</summary>
    public static bool TryReadNumber(IQueryCollection query, string name, long min, long max, long fallback, out long value, [NotNullWhen(false)] out IResult? problem)
    {
        value = fallback;
        if (!TrySingle(query, name, out string? text, out problem) || text is null)
        {
            return problem is null;
        }

        if (!TryParseWholeNumber(text, out value) || value < min || value > max)
        {
            problem = Problems.InvalidQuery(string.Create(CultureInfo.InvariantCulture, $"{name} is '{text}'. Accepted: a whole number from {min} to {max}."));
            return false;
        }

        return true;
    }

    /// <summary>
    /// Only ASCII digits. <c>long.TryParse</c> alone is not enough: even with <see cref="NumberStyles.None"/> it
    /// ignores trailing NUL characters, so <c>1%00</c> would be read as 1 and accepted.
    /// </summary>
    private static bool TryParseWholeNumber(string text, out long value)
    {
        value = 0;
        return text.Length > 0 && text.All(char.IsAsciiDigit)
            && long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value);
    }

    // Null text (and true) when absent; false when given more than once.
    private static bool TrySingle(IQueryCollection query, string name, out string? text, out IResult? problem)
    {
        StringValues values = query[name];
        text = values.Count == 1 ? values[0] : null;
        problem = values.Count > 1 ? Problems.InvalidQuery($"{name} is given {values.Count} times; give it once.") : null;
        return problem is null;
    }
}
