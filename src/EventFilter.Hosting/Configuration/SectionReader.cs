using System.Globalization;
using EventFilter.OptionRanges;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace EventFilter.Hosting.Configuration;

/// <summary>
/// Reads the options from a configuration section. Not the standard binder: it throws on a value that does not
/// convert ("abc" for a number) with a message that says neither the value nor what is accepted, before any
/// validator runs. Here every value is read as text and a bad one becomes a one-line error for the validator.
/// </summary>
internal sealed class SectionReader(IConfiguration section) : IConfigureOptions<StreamExistenceFilterHostingOptions>
{
    public void Configure(StreamExistenceFilterHostingOptions options)
    {
        BindingTrail trail = BindingTrail.Of(options);
        trail.KeyPrefix = section is IConfigurationSection { Path.Length: > 0 } named ? named.Path + ":" : "";
        trail.SectionRead = true;
        if (section[nameof(options.StreamExistenceFilterSize)] is { } size)
        {
            options.StreamExistenceFilterSize = size;
        }

        if (section[nameof(options.DataDirectory)] is { } directory)
        {
            options.DataDirectory = directory;
        }

        if (Read(options, nameof(options.CheckpointInterval), OptionErrors.CheckpointIntervalAccepted, "not a time span", ParseTimeSpan) is { } interval)
        {
            options.CheckpointInterval = interval;
        }

        if (Read(options, nameof(options.CorruptionThreshold), FilterOptionRanges.CorruptionThresholdAccepted, "not a number", ParseDouble) is { } threshold)
        {
            options.CorruptionThreshold = threshold;
        }

        if (Read(options, nameof(options.AllOnesRebuildThreshold), FilterOptionRanges.AllOnesRebuildThresholdAccepted, "not a number", ParseDouble) is { } allOnes)
        {
            options.AllOnesRebuildThreshold = allOnes;
        }

        if (Read(options, nameof(options.CatchUpCheckpointRecords), FilterOptionRanges.CatchUpCheckpointRecordsAccepted, "not a whole number", ParseLong) is { } records)
        {
            options.CatchUpCheckpointRecords = records;
        }

        if (Read(options, nameof(options.FollowLog), "true or false", "not true or false", ParseBool) is { } follow)
        {
            options.FollowLog = follow;
        }

        if (Read(options, nameof(options.FollowPollInterval), FilterOptionRanges.FollowPollIntervalAccepted, "not a time span", ParseTimeSpan) is { } poll)
        {
            options.FollowPollInterval = poll;
        }

        if (Read(options, nameof(options.MaxFollowLag), OptionErrors.MaxFollowLagAccepted, "not a time span", ParseTimeSpan) is { } lag)
        {
            options.MaxFollowLag = lag;
        }

        // An empty value unsets it, as the key's absence does: "nothing" is what the option accepts besides a count.
        if (!string.IsNullOrWhiteSpace(section[nameof(options.ExpectedStreams)])
            && Read(options, nameof(options.ExpectedStreams), FilterOptionRanges.ExpectedStreamsAccepted, "not a whole number", ParseLong) is { } expected)
        {
            options.ExpectedStreams = expected;
        }
    }

    private T? Read<T>(StreamExistenceFilterHostingOptions options, string key, string accepted, string problem, Func<string, T?> parse)
        where T : struct
    {
        string? text = section[key];
        if (text is null)
        {
            return null;
        }

        T? value = parse(text.Trim());
        if (value is null)
        {
            BindingTrail trail = BindingTrail.Of(options);
            trail.ReadErrors.Add(OptionErrors.Format(trail.KeyOf(key), text, problem, accepted));
        }

        return value;
    }

    private static bool? ParseBool(string text) =>
        bool.TryParse(text, out bool value) ? value : null;

    private static TimeSpan? ParseTimeSpan(string text) =>
        TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out TimeSpan value) ? value : null;

    private static double? ParseDouble(string text) =>
        double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) ? value : null;

    private static long? ParseLong(string text) =>
        long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out long value) ? value : null;
}
