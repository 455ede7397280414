using System.CommandLine;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports;

namespace EventFilter.Cli.Commands;

/// <summary>
/// `sizing --streams N [--fp P | --size BYTES]`: the size a target false-positive rate needs, or the rate a size
/// gives, by the classic formula and by our blocked model. Touches no file.
/// </summary>
internal static class SizingCommand
{
    /// <summary>The target rate when neither --fp nor --size is given.</summary>
    public const double DefaultTargetRate = 0.01;

    /// <summary>Beyond this no filter could hold the streams at any useful rate (10^12 need at least 71% false positives in the largest file).</summary>
    private const long MaxStreams = 1_000_000_000_000;

    public static Command Create(CliConsole console)
    {
        var streams = new Option<long>("--streams", "-n")
        {
            Description = "Distinct streams the filter must hold: 10000000, 10M or 10_000_000.",
            HelpName = "count",
            Required = true,
            CustomParser = result => CommonSymbols.ParseCount(result, 1, MaxStreams),
        };
        var rate = new Option<double?>("--fp")
        {
            Description = $"Target false-positive rate: a fraction or a percentage (0.01 or 1%). Default {TextFormat.Percent(DefaultTargetRate)}.",
            HelpName = "rate",
            CustomParser = result => CommonSymbols.ParseRate(result),
        };
        var size = new Option<long?>("--size")
        {
            Description = "Instead of --fp: a stream-existence-filter-size to rate, in bytes: 256000000, 256MB, 244MiB.",
            HelpName = "bytes",
            CustomParser = result => CommonSymbols.ParseBytes(result, FilterFileOptions.MinSizeBytes, FilterFileOptions.MaxSizeBytes),
        };
        var k = new Option<int>("--k")
        {
            Description = $"Bits per stream in the blocked model. Default {StreamExistenceFilterOptions.DefaultK}, what new stream-existence filter files use.",
            DefaultValueFactory = _ => StreamExistenceFilterOptions.DefaultK,
            CustomParser = result => (int)CommonSymbols.ParseCount(result, 1, FilterFileOptions.MaxK),
        };
        Option<bool> json = CommonSymbols.Json();
        var command = new Command("sizing", "Bytes needed for N streams at a target false-positive rate, or (with --size) the rate a size gives. Touches no file.")
        {
            streams,
            rate,
            size,
            k,
            json,
        };
        command.Validators.Add(result =>
        {
            if (result.GetResult(rate) is not null && result.GetResult(size) is not null)
            {
                result.AddError("Give either --fp (to get a size) or --size (to get a rate), not both.");
            }
        });
        command.SetAction(parsed =>
        {
            long n = parsed.GetValue(streams);
            long? bytes = parsed.GetValue(size);
            SizingReport report = bytes is { } given
                ? SizingModels.RateFor(n, given, parsed.GetValue(k))
                : SizingModels.SizeFor(n, parsed.GetValue(rate) ?? DefaultTargetRate, parsed.GetValue(k));
            if (parsed.GetValue(json))
            {
                JsonOutput.Write(console.Out, report, CliJsonContext.Default.SizingReport, ExitCodes.Success);
            }
            else
            {
                report.WriteText(console.Out);
            }

            return ExitCodes.Success;
        });
        return command;
    }
}
