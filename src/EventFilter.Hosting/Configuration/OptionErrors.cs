using System.Globalization;
using EventFilter.Format;

namespace EventFilter.Hosting.Configuration;

/// <summary>
/// What each setting accepts, and the one-line error every bad value gets: the key as the operator wrote it,
/// the value given, what is wrong and what is accepted. Listed in docs/configuration.md, section "Errors".
/// </summary>
internal static class OptionErrors
{
    public static readonly TimeSpan MinCheckpointInterval = TimeSpan.FromSeconds(1);

    public static readonly TimeSpan MaxCheckpointInterval = TimeSpan.FromDays(1);

    public static string SizeAccepted { get; } = string.Create(
        CultureInfo.InvariantCulture,
        $"0 to disable the filter, or {FilterFileOptions.MinSizeBytes} to {FilterFileOptions.MaxSizeBytes} bytes ({DescribeBytes(FilterFileOptions.MaxSizeBytes)}) written as {ByteSize.AcceptedFormats}");

    public const string DataDirectoryAccepted = "the path of a directory this process can create files in (it is created if missing)";

    public static string CheckpointIntervalAccepted { get; } = string.Create(
        CultureInfo.InvariantCulture,
        $"a time span [d.]hh:mm:ss from {MinCheckpointInterval:c} to {MaxCheckpointInterval:c}, e.g. 00:00:30");

    public const string CorruptionThresholdAccepted = "a fraction strictly between 0 and 1, e.g. 0.05 for 5%";

    public const string AllOnesRebuildThresholdAccepted = "a fraction above 0 and at most 1, e.g. 0.01 for 1% (1: never rebuild online)";

    public const string CatchUpCheckpointRecordsAccepted = "a whole number of records from 1 to 9223372036854775807, e.g. 1000000";

    public const string ExpectedStreamsAccepted = "a whole number of streams from 1 to 9223372036854775807, e.g. 128000000, or nothing to keep k = 6";

    /// <summary>
    /// One failure, with no full stop at its end: the host joins several with "; " into one line
    /// (<see cref="Microsoft.Extensions.Options.OptionsValidationException.Message"/>), where a full stop would make ".;".
    /// </summary>
    public static string Format(string key, string? given, string problem, string accepted) =>
        $"{key} is {(given is null ? "not set" : $"'{given}'")}: {problem}. Accepted: {accepted}";

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
