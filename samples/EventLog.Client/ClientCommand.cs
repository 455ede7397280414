using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace EventLog.Client;

/// <summary>The command line: <c>--url</c>, <c>--streams N</c>, <c>--concurrency C</c>, <c>--prefix</c>.</summary>
internal static class ClientCommand
{
    public const string DefaultUrl = "http://127.0.0.1:2113";

    /// <param name="time">The clock the default run name is read from and the run is timed on.</param>
    public static RootCommand Create(TimeProvider time)
    {
        var url = new Option<Uri>("--url")
        {
            Description = "The server's address.",
            DefaultValueFactory = _ => new Uri(DefaultUrl),
            CustomParser = result => Uri.TryCreate(result.Tokens[0].Value, UriKind.Absolute, out Uri? uri) && uri.Scheme is "http" or "https"
                ? uri
                : Fail<Uri>(result, $"--url '{result.Tokens[0].Value}' is not an http:// or https:// address."),
        };
        var streams = new Option<long>("--streams", "-n")
        {
            Description = "New streams to append to, one event each.",
            DefaultValueFactory = _ => 10_000,
            CustomParser = result => ParseWhole(result, "--streams", 1, long.MaxValue),
        };
        var concurrency = new Option<int>("--concurrency", "-c")
        {
            Description = "Appends in flight at once.",
            DefaultValueFactory = _ => 16,
            CustomParser = result => (int)ParseWhole(result, "--concurrency", 1, 4096),
        };
        var prefix = new Option<string>("--prefix")
        {
            Description = "Stream names are <prefix>-<i>; the default, load-<time>, is new on every run.",
            DefaultValueFactory = _ => "load-" + time.GetUtcNow().UtcDateTime.ToString("yyyyMMdd-HHmmss-fff", CultureInfo.InvariantCulture),
        };
        var command = new RootCommand("Appends one event to each of N new streams of an EventLog server, C at a time, and reports the rate.")
        {
            url,
            streams,
            concurrency,
            prefix,
        };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            var settings = new LoadSettings(parsed.GetValue(url)!, parsed.GetValue(streams), parsed.GetValue(concurrency), parsed.GetValue(prefix)!);
            LoadResult result = await LoadRun.RunAsync(settings, Console.Out, time, cancellationToken).ConfigureAwait(false);
            return result.AllCreated ? 0 : 1;
        });
        return command;
    }

    private static long ParseWhole(ArgumentResult result, string name, long min, long max)
    {
        string text = result.Tokens[0].Value.Replace("_", "", StringComparison.Ordinal);
        return long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out long value) && value >= min && value <= max
            ? value
            : Fail<long>(result, string.Create(CultureInfo.InvariantCulture, $"{name} '{result.Tokens[0].Value}' is not a whole number from {min:N0} to {max:N0}."));
    }

    private static T? Fail<T>(ArgumentResult result, string message)
    {
        result.AddError(message);
        return default;
    }
}
