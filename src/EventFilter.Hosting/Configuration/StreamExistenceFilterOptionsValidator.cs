using System.Globalization;
using EventFilter.OptionRanges;
using Microsoft.Extensions.Options;

namespace EventFilter.Hosting.Configuration;

/// <summary>
/// Checks every setting on start, before anything touches the disk, by the core's ranges (<see cref="FilterOptionRanges"/>)
/// plus the host's own settings (the directory, the checkpoint interval). A hand-written validator rather than data
/// annotations: an annotation's message cannot show the value given, and the size is text with units.
/// </summary>
internal sealed class StreamExistenceFilterOptionsValidator : IValidateOptions<StreamExistenceFilterHostingOptions>
{
    public ValidateOptionsResult Validate(string? name, StreamExistenceFilterHostingOptions options)
    {
        BindingTrail trail = BindingTrail.Of(options);
        List<string> failures = [.. trail.ReadErrors];
        if (SizeProblem(options.StreamExistenceFilterSize) is { } size)
        {
            failures.Add(OptionErrors.Format(trail.SizeKey, options.StreamExistenceFilterSize, size, OptionErrors.SizeAccepted));
        }

        if (DirectoryProblem(options.DataDirectory) is { } directory)
        {
            failures.Add(OptionErrors.Format(trail.KeyOf(nameof(options.DataDirectory)), options.DataDirectory, directory, OptionErrors.DataDirectoryAccepted));
        }

        TimeSpan interval = options.CheckpointInterval;
        if (interval < OptionErrors.MinCheckpointInterval || interval > OptionErrors.MaxCheckpointInterval)
        {
            failures.Add(OutOfRange(trail, nameof(options.CheckpointInterval), interval.ToString("c", CultureInfo.InvariantCulture), OptionErrors.CheckpointIntervalAccepted));
        }

        if (!FilterOptionRanges.AcceptsFollowPollInterval(options.FollowPollInterval))
        {
            failures.Add(OutOfRange(trail, nameof(options.FollowPollInterval), options.FollowPollInterval.ToString("c", CultureInfo.InvariantCulture), FilterOptionRanges.FollowPollIntervalAccepted));
        }

        if (options.MaxFollowLag < OptionErrors.MinMaxFollowLag || options.MaxFollowLag > OptionErrors.MaxMaxFollowLag)
        {
            failures.Add(OutOfRange(trail, nameof(options.MaxFollowLag), options.MaxFollowLag.ToString("c", CultureInfo.InvariantCulture), OptionErrors.MaxFollowLagAccepted));
        }

        if (!FilterOptionRanges.AcceptsCorruptionThreshold(options.CorruptionThreshold))
        {
            failures.Add(OutOfRange(trail, nameof(options.CorruptionThreshold), options.CorruptionThreshold, FilterOptionRanges.CorruptionThresholdAccepted));
        }

        if (!FilterOptionRanges.AcceptsAllOnesRebuildThreshold(options.AllOnesRebuildThreshold))
        {
            failures.Add(OutOfRange(trail, nameof(options.AllOnesRebuildThreshold), options.AllOnesRebuildThreshold, FilterOptionRanges.AllOnesRebuildThresholdAccepted));
        }

        if (!FilterOptionRanges.AcceptsCatchUpCheckpointRecords(options.CatchUpCheckpointRecords))
        {
            failures.Add(OutOfRange(trail, nameof(options.CatchUpCheckpointRecords), options.CatchUpCheckpointRecords, FilterOptionRanges.CatchUpCheckpointRecordsAccepted));
        }

        if (!FilterOptionRanges.AcceptsExpectedStreams(options.ExpectedStreams))
        {
            failures.Add(OutOfRange(trail, nameof(options.ExpectedStreams), options.ExpectedStreams, FilterOptionRanges.ExpectedStreamsAccepted));
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static string OutOfRange(BindingTrail trail, string property, IFormattable? given, string accepted) =>
        OutOfRange(trail, property, given?.ToString(null, CultureInfo.InvariantCulture), accepted);

    private static string OutOfRange(BindingTrail trail, string property, string? given, string accepted) =>
        OptionErrors.Format(trail.KeyOf(property), given, "out of range", accepted);

    // Text first (a size has units), then the core's range.
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

        return ByteSize.TryParse(text, out long bytes) ? FilterOptionRanges.SizeProblem(bytes) : "not a size";
    }

    // The directory is probed only when the path is set; with the filter disabled it is still needed, to delete a stale checkpoint.
    private static string? DirectoryProblem(string? directory) =>
        string.IsNullOrWhiteSpace(directory) ? "a data directory is required" : DataDirectoryProbe.FindProblem(directory);
}
