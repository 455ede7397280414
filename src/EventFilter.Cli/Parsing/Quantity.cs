using System.Globalization;

namespace EventFilter.Cli.Parsing;

/// <summary>
/// Parses counts with optional unit suffixes, case-insensitive: K/M/G/T are powers of 1000, Ki/Mi/Gi/Ti powers of 1024.
/// Sizes in bytes go to the core's <see cref="ByteSize"/>, the one parser the hosting options use too.
/// The number may have '_' separators and a fraction (1.5G), but the result must be a whole number.
/// Documented in docs/operations.md, section "Numbers and units".
/// </summary>
internal static class Quantity
{
    private static readonly (string Suffix, decimal Factor)[] Units =
    [
        ("ki", 1024m), ("mi", 1024m * 1024), ("gi", 1024m * 1024 * 1024), ("ti", 1024m * 1024 * 1024 * 1024),
        ("k", 1e3m), ("m", 1e6m), ("g", 1e9m), ("t", 1e12m),
    ];

    /// <summary>Parses a count such as 10M or 250_000.</summary>
    public static bool TryParseCount(string text, out long value, out string? error) => TryParse(text, out value, out error);

    /// <summary>Parses a size in bytes such as 256MB, 1GiB, 2.5G or 1048576, by the core's rules (<see cref="ByteSize"/>).</summary>
    public static bool TryParseBytes(string text, out long value, out string? error)
    {
        error = ByteSize.TryParse(text, out value) ? null : $"'{text}' is not a size: use {ByteSize.AcceptedFormats}.";
        return error is null;
    }

    private static bool TryParse(string text, out long value, out string? error)
    {
        value = 0;
        string unit = new(text.Trim().SkipWhile(c => char.IsAsciiDigit(c) || c is '_' or '.').ToArray());
        string number = text.Trim()[..^unit.Length].Replace("_", string.Empty, StringComparison.Ordinal);
        unit = unit.Trim().ToLowerInvariant();
        decimal factor = 1;
        if (number.Length == 0 || unit.Any(c => !char.IsAsciiLetter(c)))
        {
            error = $"'{text}' is not a number.";
            return false;
        }

        if (unit.Length > 0)
        {
            (string Suffix, decimal Factor) match = Array.Find(Units, u => u.Suffix == unit);
            if (match.Suffix is null)
            {
                error = $"'{text}' has an unknown unit; use K, M, G, T, Ki, Mi, Gi or Ti.";
                return false;
            }

            factor = match.Factor;
        }

        if (!decimal.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out decimal amount))
        {
            error = $"'{text}' is not a number.";
            return false;
        }

        // Compared before multiplying, so that a huge number is an error and not a decimal overflow.
        decimal total = amount > long.MaxValue / factor ? decimal.MinusOne : amount * factor;
        if (total < 0 || total != decimal.Truncate(total))
        {
            error = $"'{text}' is not a whole number of streams that fits in 64 bits.";
            return false;
        }

        value = (long)total;
        error = null;
        return true;
    }
}
