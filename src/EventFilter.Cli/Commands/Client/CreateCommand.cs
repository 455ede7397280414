using System.CommandLine;
using System.Globalization;
using EventFilter.Cli.Output;
using EventFilter.Cli.Reports.Client;

namespace EventFilter.Cli.Commands.Client;

/// <summary>`create NAME [--error-rate R] [--capacity N] [--expansion N] [--nonscaling]`: BF.RESERVE.</summary>
internal static class CreateCommand
{
    /// <summary>RedisBloom's defaults for a filter made without parameters, which eventfilterd follows too.</summary>
    private const double DefaultErrorRate = 0.01;
    private const long DefaultCapacity = 100;
    private const int DefaultExpansion = 2;

    /// <summary>RedisBloom's (and eventfilterd's) largest expansion.</summary>
    private const int MaxExpansion = 32768;

    public static Command Create(DaemonSession session)
    {
        Argument<string> name = ClientSymbols.FilterName();
        var rate = new Option<double>("--error-rate")
        {
            Description = $"False-positive rate at capacity: a fraction or a percentage (0.001 or 0.1%). Default {TextFormat.Percent(DefaultErrorRate)}.",
            HelpName = "rate",
            DefaultValueFactory = _ => DefaultErrorRate,
            CustomParser = CommonSymbols.ParseRate,
        };
        var capacity = new Option<long>("--capacity")
        {
            Description = $"Items the first layer holds at that rate: 1000000, 1M or 1_000_000. Default {DefaultCapacity}.",
            HelpName = "count",
            DefaultValueFactory = _ => DefaultCapacity,
            CustomParser = result => CommonSymbols.ParseCount(result, 1, long.MaxValue),
        };
        var expansion = new Option<int?>("--expansion")
        {
            Description = $"How much larger each new layer is once the last is full. Default {DefaultExpansion}.",
            HelpName = "factor",
            CustomParser = result => (int)CommonSymbols.ParseCount(result, 1, MaxExpansion),
        };
        var nonScaling = new Option<bool>("--nonscaling") { Description = "Never add a layer: adds fail once the filter is full." };
        var command = new Command("create", "Create a filter (BF.RESERVE). Exit 4 if one of that name exists already.")
        {
            name,
            rate,
            capacity,
            expansion,
            nonScaling,
        };
        command.Validators.Add(result =>
        {
            if (result.GetResult(expansion) is not null && result.GetValue(nonScaling))
            {
                result.AddError("--nonscaling filters never expand: give --expansion or --nonscaling, not both.");
            }
        });
        session.SetAction(command, CliJsonContext.Default.CreateReport, async (parsed, daemon) =>
        {
            string key = parsed.GetValue(name)!;
            double errorRate = parsed.GetValue(rate);
            long items = parsed.GetValue(capacity);
            int? factor = parsed.GetValue(nonScaling) ? null : parsed.GetValue(expansion) ?? DefaultExpansion;
            string[] request = factor is { } f
                ? ["BF.RESERVE", key, Text(errorRate), Text(items), "EXPANSION", Text(f)]
                : ["BF.RESERVE", key, Text(errorRate), Text(items), "NONSCALING"];
            await daemon.CallExpectingSuccessAsync(request).ConfigureAwait(false);
            return new CreateReport(daemon.SocketPath, key, items, errorRate, factor);
        });
        return command;
    }

    private static string Text(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    private static string Text(long value) => value.ToString(CultureInfo.InvariantCulture);
}
