using System.Globalization;

namespace EventFilter;

/// <summary>
/// Parses a size in bytes as operators write it: <c>256000000</c>, <c>256_000_000</c>, <c>15MB</c>, <c>1GiB</c>, <c>1.5 GB</c>.
/// KB, MB, GB and TB are powers of 1000; KiB, MiB, GiB and TiB are powers of 1024. Units are case-insensitive and
/// the trailing B is optional (<c>15M</c> is <c>15MB</c>). A fraction is accepted when the result is a whole
/// number of bytes. One parser for the hosting options and the <c>eventfilter</c> tool; documented in
/// docs/configuration.md, section "Sizes".
/// </summary>
public static class ByteSize
{
    /// <summary>What <see cref="TryParse"/> accepts, for error messages.</summary>
    public const string AcceptedFormats =
        "a whole number of bytes, or a number with a unit: KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), case-insensitive, B optional, e.g. 256MB or 1GiB";

    private static readonly (string Suffix, decimal Factor)[] Units =
    [
        ("kib", 1L << 10), ("mib", 1L << 20), ("gib", 1L << 30), ("tib", 1L << 40),
        ("ki", 1L << 10), ("mi", 1L << 20), ("gi", 1L << 30), ("ti", 1L << 40),
        ("kb", 1e3m), ("mb", 1e6m), ("gb", 1e9m), ("tb", 1e12m),
        ("k", 1e3m), ("m", 1e6m), ("g", 1e9m), ("t", 1e12m),
        ("b", 1m),
    ];

    /// <summary>Parses <paramref name="text"/> into bytes.</summary>
    /// <param name="text">The size as written; surrounding white space and a space before the unit are allowed.</param>
    /// <param name="bytes">The size in bytes, or 0 when parsing fails.</param>
    /// <returns>False for an empty text, a sign, an unknown unit, a fraction of a byte, or more than <see cref="long.MaxValue"/> bytes.</returns>
    public static bool TryParse(string? text, out long bytes)
    {
        bytes = 0;
        ReadOnlySpan<char> trimmed = text.AsSpan().Trim();
        int numberLength = 0;
        while (numberLength < trimmed.Length && (char.IsAsciiDigit(trimmed[numberLength]) || trimmed[numberLength] is '.' or '_'))
        {
            numberLength++;
        }

        ReadOnlySpan<char> unit = trimmed[numberLength..].TrimStart();
        if (numberLength == 0 || !TryFindFactor(unit, out decimal factor))
        {
            return false;
        }

        // NumberStyles.AllowDecimalPoint alone: no sign, no exponent, no thousands separators ('_' groups digits instead).
        string digits = trimmed[..numberLength].ToString().Replace("_", string.Empty, StringComparison.Ordinal);
        if (!decimal.TryParse(digits, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out decimal amount))
        {
            return false;
        }

        // Compared before multiplying, so that a huge number is a failure and not a decimal overflow.
        if (amount > long.MaxValue / factor)
        {
            return false;
        }

        decimal total = amount * factor;
        if (total != decimal.Truncate(total))
        {
            return false;
        }

        bytes = (long)total;
        return true;
    }

    private static bool TryFindFactor(ReadOnlySpan<char> unit, out decimal factor)
    {
        factor = 1;
        if (unit.IsEmpty)
        {
            return true;
        }

        foreach ((string suffix, decimal value) in Units)
        {
            if (unit.Equals(suffix, StringComparison.OrdinalIgnoreCase))
            {
                factor = value;
                return true;
            }
        }

        return false;
    }
}
