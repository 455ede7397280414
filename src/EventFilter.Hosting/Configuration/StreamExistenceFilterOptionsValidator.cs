using System.Globalization;
using EventFilter.Format;
using Microsoft.Extensions.Options;

namespace EventFilter.Hosting.Configuration;

/// <summary>
/// Checks every setting on start, before anything touches the disk. A hand-written validator rather than
/// data annotations: an annotation's message cannot show the value given, and the size is text with units.
/// </summary>
internal sealed class StreamExistenceFilterOptionsValidator : IValidateOptions<StreamExistenceFilterHostingOptions>
{
    public ValidateOptionsResult Validate(string? name, StreamExistenceFilterHostingOptions options)
    {
        List<string> failures = [.. options.ReadErrors];
        if (SizeProblem(options.StreamExistenceFilterSize) is { } size)
        {
            failures.Add(OptionErrors.Format(options.SizeKey, options.StreamExistenceFilterSize, size, OptionErrors.SizeAccepted));
        }

        if (DirectoryProblem(options.DataDirectory) is { } directory)
        {
            failures.Add(OptionErrors.Format(options.KeyOf(nameof(options.DataDirectory)), options.DataDirectory, directory, OptionErrors.DataDirectoryAccepted));
        }

        TimeSpan interval = options.CheckpointInterval;
        if (interval < OptionErrors.MinCheckpointInterval || interval > OptionErrors.MaxCheckpointInterval)
        {
            failures.Add(OptionErrors.Format(options.KeyOf(nameof(options.CheckpointInterval)), interval.ToString("c", CultureInfo.InvariantCulture), "out of range", OptionErrors.CheckpointIntervalAccepted));
        }

        double threshold = options.CorruptionThreshold;
        if (!(threshold > 0 && threshold < 1))
        {
            failures.Add(OptionErrors.Format(options.KeyOf(nameof(options.CorruptionThreshold)), threshold.ToString(CultureInfo.InvariantCulture), "out of range", OptionErrors.CorruptionThresholdAccepted));
        }

        double allOnes = options.AllOnesRebuildThreshold;
        if (!(allOnes > 0 && allOnes <= 1))
        {
            failures.Add(OptionErrors.Format(options.KeyOf(nameof(options.AllOnesRebuildThreshold)), allOnes.ToString(CultureInfo.InvariantCulture), "out of range", OptionErrors.AllOnesRebuildThresholdAccepted));
        }

        if (options.CatchUpCheckpointRecords < 1)
        {
            failures.Add(OptionErrors.Format(options.KeyOf(nameof(options.CatchUpCheckpointRecords)), options.CatchUpCheckpointRecords.ToString(CultureInfo.InvariantCulture), "out of range", OptionErrors.CatchUpCheckpointRecordsAccepted));
        }

        if (options.ExpectedStreams is < 1 and long expected)
        {
            failures.Add(OptionErrors.Format(options.KeyOf(nameof(options.ExpectedStreams)), expected.ToString(CultureInfo.InvariantCulture), "out of range", OptionErrors.ExpectedStreamsAccepted));
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static string? SizeProblem(string? text)
    {
        if (text is null)
        {
            return "a size is required";
        }

        if (text.TrimStart().StartsWith('-'))
        {
            return "negative";
        }

        if (!ByteSize.TryParse(text, out long bytes))
        {
            return "not a size";
        }

        return bytes switch
        {
            0 => null,
            < FilterFileOptions.MinSizeBytes => string.Create(CultureInfo.InvariantCulture, $"below the minimum of {FilterFileOptions.MinSizeBytes} bytes"),
            _ when bytes > FilterFileOptions.MaxSizeBytes => string.Create(CultureInfo.InvariantCulture, $"above the maximum of {FilterFileOptions.MaxSizeBytes} bytes ({OptionErrors.DescribeBytes(FilterFileOptions.MaxSizeBytes)})"),
            _ => null,
        };
    }

    // The directory is probed only when the path is set; with the filter disabled it is still needed, to delete a stale checkpoint.
    private static string? DirectoryProblem(string? directory) =>
        string.IsNullOrWhiteSpace(directory) ? "a data directory is required" : DataDirectoryProbe.FindProblem(directory);
}
