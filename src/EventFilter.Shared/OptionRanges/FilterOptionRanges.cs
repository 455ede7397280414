using System.Globalization;

namespace EventFilter.OptionRanges;

/// <summary>
/// Each filter setting's default and accepted range, stated once. The core's options take their defaults from here and
/// check with it (<see cref="StreamExistenceFilterOptions"/>, <see cref="FilterFileOptions"/>); the hosting package's
/// validator checks the same rules before start, to name the configuration key and the value as written. Shared as
/// source, so that the hosting package needs none of the core's internals.
/// </summary>
internal static class FilterOptionRanges
{
    /// <summary>The default size, as the hosting options write it; <see cref="DefaultSizeBytes"/> in bytes.</summary>
    public const string DefaultSize = "256MB";

    public static long DefaultSizeBytes { get; } = ByteSize.TryParse(DefaultSize, out long bytes) ? bytes : throw new InvalidOperationException(DefaultSize);

    public const double DefaultAllOnesRebuildThreshold = 0.01;

    public const long DefaultCatchUpCheckpointRecords = 16_000_000;

    /// <summary>How often a following filter reads the log's end when the log gives no signal (or beside one).</summary>
    public static readonly TimeSpan DefaultFollowPollInterval = TimeSpan.FromMilliseconds(100);

    public static readonly TimeSpan MinFollowPollInterval = TimeSpan.FromMilliseconds(1);

    public static readonly TimeSpan MaxFollowPollInterval = TimeSpan.FromMinutes(1);

    public const string FollowPollIntervalAccepted = "a time from 00:00:00.001 to 00:01:00, e.g. 00:00:00.100";

    public const string CorruptionThresholdAccepted = "a fraction strictly between 0 and 1, e.g. 0.05 for 5%";

    public const string AllOnesRebuildThresholdAccepted = "a fraction above 0 and at most 1, e.g. 0.01 for 1% (1: never rebuild online)";

    public const string CatchUpCheckpointRecordsAccepted = "a whole number of records from 1 to 9223372036854775807, e.g. 1000000";

    public const string ExpectedStreamsAccepted = "a whole number of streams from 1 to 9223372036854775807, e.g. 128000000, or nothing for the default k = 8";

    /// <summary>The sizes accepted, in bytes; the hosting package adds how the text may be written.</summary>
    public static string SizeAccepted { get; } = string.Create(
        CultureInfo.InvariantCulture,
        $"0 to disable the filter, or {FilterFileOptions.MinSizeBytes} to {FilterFileOptions.MaxSizeBytes} bytes ({DescribeBytes(FilterFileOptions.MaxSizeBytes)})");

    /// <summary>What is wrong with a size in bytes (below the minimum, above the maximum); null when it is accepted.</summary>
    public static string? SizeProblem(long bytes) => bytes switch
    {
        0 => null,
        < 0 => "negative",
        < FilterFileOptions.MinSizeBytes => string.Create(CultureInfo.InvariantCulture, $"below the minimum of {FilterFileOptions.MinSizeBytes} bytes"),
        _ when bytes > FilterFileOptions.MaxSizeBytes => string.Create(CultureInfo.InvariantCulture, $"above the maximum of {FilterFileOptions.MaxSizeBytes} bytes ({DescribeBytes(FilterFileOptions.MaxSizeBytes)})"),
        _ => null,
    };

    public static bool AcceptsCorruptionThreshold(double value) => value > 0 && value < 1;

    public static bool AcceptsAllOnesRebuildThreshold(double value) => value > 0 && value <= 1;

    public static bool AcceptsCatchUpCheckpointRecords(long value) => value >= 1;

    public static bool AcceptsExpectedStreams(long? value) => value is null or >= 1;

    public static bool AcceptsFollowPollInterval(TimeSpan value) => value >= MinFollowPollInterval && value <= MaxFollowPollInterval;

    /// <summary>The core's error for a value out of range: the option, what it accepts, the value given.</summary>
    public static ArgumentOutOfRangeException OutOfRange(string option, object? value, string accepted) =>
        new(option, value, string.Create(CultureInfo.InvariantCulture, $"{option} must be {accepted}; got {value}."));

    /// <summary>"256 GiB" for an exact binary multiple, "about 240 GiB" for another size of 1 KiB or more, else "100 B".</summary>
    public static string DescribeBytes(long bytes)
    {
        string[] units = ["B", "KiB", "MiB", "GiB", "TiB"];
        int unit = 0;
        double value = bytes;
        while (unit < units.Length - 1 && value >= 1024)
        {
            value /= 1024;
            unit++;
        }

        bool exact = value == Math.Floor(value);
        string number = value.ToString(exact ? "0" : "0.#", CultureInfo.InvariantCulture);
        return exact ? $"{number} {units[unit]}" : $"about {number} {units[unit]}";
    }
}
