using System.Globalization;
using EventFilter.OptionRanges;

namespace EventFilter.Hosting.Configuration;

/// <summary>
/// What each setting accepts, and the one-line error every bad value gets: the key as the operator wrote it,
/// the value given, what is wrong and what is accepted. Listed in docs/configuration.md, section "Errors". The ranges
/// of the settings the core has too are the core's (<see cref="FilterOptionRanges"/>); the rest are the host's own.
/// </summary>
internal static class OptionErrors
{
    public static readonly TimeSpan MinCheckpointInterval = TimeSpan.FromSeconds(1);

    public static readonly TimeSpan MaxCheckpointInterval = TimeSpan.FromDays(1);

    public static readonly TimeSpan MinMaxFollowLag = TimeSpan.FromSeconds(1);

    public static readonly TimeSpan MaxMaxFollowLag = TimeSpan.FromDays(1);

    public static string MaxFollowLagAccepted { get; } = string.Create(
        CultureInfo.InvariantCulture,
        $"a time span [d.]hh:mm:ss from {MinMaxFollowLag:c} to {MaxMaxFollowLag:c}, e.g. 00:00:30");

    public static string SizeAccepted { get; } = string.Create(
        CultureInfo.InvariantCulture,
        $"{FilterOptionRanges.SizeAccepted} written as {ByteSize.AcceptedFormats}");

    public const string DataDirectoryAccepted = "the path of a directory this process can create files in (it is created if missing)";

    public static string CheckpointIntervalAccepted { get; } = string.Create(
        CultureInfo.InvariantCulture,
        $"a time span [d.]hh:mm:ss from {MinCheckpointInterval:c} to {MaxCheckpointInterval:c}, e.g. 00:00:30");

    /// <summary>
    /// One failure, with no full stop at its end: the host joins several with "; " into one line
    /// (<see cref="Microsoft.Extensions.Options.OptionsValidationException.Message"/>), where a full stop would make ".;".
    /// </summary>
    public static string Format(string key, string? given, string problem, string accepted) =>
        $"{key} is {(given is null ? "not set" : $"'{given}'")}: {problem}. Accepted: {accepted}";
}
