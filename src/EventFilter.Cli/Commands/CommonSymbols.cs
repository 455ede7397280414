using System.CommandLine;
using System.CommandLine.Parsing;
using EventFilter.Cli.Output;
using EventFilter.Cli.Parsing;

namespace EventFilter.Cli.Commands;

/// <summary>Arguments and options several commands share, built fresh per command (a symbol belongs to one parent).</summary>
internal static class CommonSymbols
{
    public static Argument<string> FilterFile() => new("file") { Description = "The filter file (the checkpoint, if any, is <file>.checkpoint)." };

    public static Option<bool> Json() => new("--json") { Description = "Write one JSON object (camelCase) to stdout instead of text." };

    public static Option<double> Threshold(string description) => new("--threshold")
    {
        Description = description + " A fraction or a percentage, e.g. 0.05 or 5%.",
        HelpName = "fraction",
        DefaultValueFactory = _ => FilterFileOptions.DefaultCorruptionThreshold,
        CustomParser = ParseRate,
    };

    /// <summary>A rate option (--fp, --threshold): 0.01 or 1%.</summary>
    public static double ParseRate(ArgumentResult result)
    {
        string text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        if (!Rate.TryParse(text, out double value, out string? error))
        {
            result.AddError($"{OptionName(result)}: {error}");
        }

        return value;
    }

    /// <summary>A count option (--streams): 10000000, 10M, 10_000_000, within [min, max].</summary>
    public static long ParseCount(ArgumentResult result, long min, long max) => ParseQuantity(result, Quantity.TryParseCount, min, max);

    /// <summary>A size option (--size): 256000000, 256MB, 244MiB, within [min, max].</summary>
    public static long ParseBytes(ArgumentResult result, long min, long max) => ParseQuantity(result, Quantity.TryParseBytes, min, max);

    private delegate bool QuantityParser(string text, out long value, out string? error);

    // Ranges are checked here rather than in validators: a validator that reads a value the parser rejected throws.
    private static long ParseQuantity(ArgumentResult result, QuantityParser parse, long min, long max)
    {
        string text = result.Tokens.Count > 0 ? result.Tokens[0].Value : string.Empty;
        if (!parse(text, out long value, out string? error))
        {
            result.AddError($"{OptionName(result)}: {error}");
        }
        else if (value < min || value > max)
        {
            result.AddError($"{OptionName(result)} must be between {TextFormat.Count(min)} and {TextFormat.Count(max)}; got {TextFormat.Count(value)}.");
        }

        return value;
    }

    private static string OptionName(ArgumentResult result) => result.Parent is OptionResult option ? option.Option.Name : result.Argument.Name;
}
