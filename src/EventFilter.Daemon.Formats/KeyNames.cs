namespace EventFilter.Daemon.Formats;

/// <summary>
/// Filter keys (any bytes) to directory names and back: "k" then the key in lowercase hex. Hex has no separators, dots
/// or case to fold, so no key can reach outside the data directory or collide with another on a case-insensitive
/// file system. The prefix keeps the empty key a valid name.
/// </summary>
public static class KeyNames
{
    /// <summary>Hex doubles the length; 120 bytes keeps a name well under the usual 255-byte limit.</summary>
    public const int MaxKeyBytes = 120;

    /// <summary>The longest directory name: the prefix and two hex digits per byte.</summary>
    public const int MaxNameChars = 1 + (2 * MaxKeyBytes);

    /// <summary>The directory name of <paramref name="key"/>, which must be at most <see cref="MaxKeyBytes"/> long.</summary>
    public static string DirectoryName(ReadOnlySpan<byte> key) => "k" + Convert.ToHexStringLower(key);

    /// <summary>Writes the directory name of a key of at most <see cref="MaxKeyBytes"/> into <paramref name="name"/>; returns its length.</summary>
    public static int WriteDirectoryName(ReadOnlySpan<byte> key, Span<char> name)
    {
        name[0] = 'k';
        Convert.TryToHexStringLower(key, name[1..], out int written);
        return 1 + written;
    }

    /// <summary>The key a directory name stands for; false for anything else found in the directory.</summary>
    public static bool TryParse(string directoryName, out byte[] key)
    {
        key = [];
        if (directoryName.Length == 0 || directoryName[0] != 'k' || directoryName.Length % 2 != 1)
        {
            return false;
        }

        ReadOnlySpan<char> hex = directoryName.AsSpan(1);
        foreach (char c in hex)
        {
            if (!char.IsAsciiHexDigitLower(c) && !char.IsAsciiDigit(c))
            {
                return false;
            }
        }

        key = Convert.FromHexString(hex);
        return true;
    }
}
