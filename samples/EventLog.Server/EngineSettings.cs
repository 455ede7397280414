using System.Globalization;
using Microsoft.Extensions.Options;

namespace EventLog.Server;

/// <summary>
/// The engine's tuning keys in the <c>EventLog</c> section (<c>--EventLog:SegmentSizeBytes 65536</c>): segment size,
/// memtable size and merge threshold. Small values make rollovers, index flushes and merges frequent, which the kill
/// tests need; the defaults are the engine's. Checked when the settings are read, before anything is opened: a bad
/// value is one configuration-error line naming the key.
/// </summary>
internal static class EngineSettings
{
    public const string SegmentSizeKey = "EventLog:SegmentSizeBytes";
    public const string MemTableEntriesKey = "EventLog:MemTableEntries";
    public const string MergeThresholdKey = "EventLog:IndexMergeThreshold";

    /// <exception cref="OptionsValidationException">A value is not a whole number or is out of the engine's range.</exception>
    public static EventLogOptions From(IConfiguration configuration, string dataDirectory)
    {
        var defaults = new EventLogOptions { DataDirectory = dataDirectory };
        EventLogOptions options = defaults with
        {
            SegmentSizeBytes = Read(configuration, SegmentSizeKey, defaults.SegmentSizeBytes),
            MemTableEntries = (int)Read(configuration, MemTableEntriesKey, defaults.MemTableEntries, int.MaxValue),
            IndexMergeThreshold = (int)Read(configuration, MergeThresholdKey, defaults.IndexMergeThreshold, int.MaxValue),

            // The host's filter (Start(filter)) is used, never the engine's own; the hosting package checkpoints it.
            StreamExistenceFilterSizeBytes = 0,
        };
        try
        {
            options.Validate();
        }
        catch (ArgumentException error)
        {
            // "X must be ...; got v. (Parameter 'X')..." with the key in front instead of the parameter at the end.
            string reason = error.Message.Split('\n')[0];
            int parameter = reason.IndexOf(" (Parameter", StringComparison.Ordinal);
            throw Invalid($"EventLog:{(parameter >= 0 ? reason[..parameter] : reason)}");
        }

        return options;
    }

    private static long Read(IConfiguration configuration, string key, long fallback, long max = long.MaxValue)
    {
        if (configuration[key] is not { } text)
        {
            return fallback;
        }

        if (!long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out long value) || !text.All(char.IsAsciiDigit) || value > max)
        {
            throw Invalid($"{key} is '{text}': not a whole number (0 to {max:N0}).");
        }

        return value;
    }

    private static OptionsValidationException Invalid(string message) => new(nameof(EventLogOptions), typeof(EventLogOptions), [message]);
}
