using System.Globalization;

namespace EventFilter.Cli.Parsing;

/// <summary>Parses a false-positive rate or a threshold: a fraction (0.01) or a percentage (1%), strictly between 0 and 1.</summary>
internal static class Rate
{
    public static bool TryParse(string text, out double value, out string? error)
    {
        string trimmed = text.Trim();
        bool percent = trimmed.EndsWith('%');
        if (!double.TryParse(percent ? trimmed[..^1] : trimmed, NumberStyles.Float, CultureInfo.InvariantCulture, out value))
        {
            error = $"'{text}' is not a number; give a fraction such as 0.01 or a percentage such as 1%.";
            return false;
        }

        value = percent ? value / 100 : value;
        if (!(value > 0 && value < 1))
        {
            error = $"'{text}' must be strictly between 0 and 1 (0% and 100%).";
            return false;
        }

        error = null;
        return true;
    }
}
