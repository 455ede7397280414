using System.IO.Hashing;

namespace EventFilter.Daemon.Formats;

/// <summary>
/// Filter keys (any bytes) to directory names (docs/daemon.md, "Files"). A key of up to <see cref="MaxHexKeyBytes"/>
/// is named "k" then its bytes in lowercase hex, and the name is the key (and so is any "k" name of up to
/// <see cref="MaxNameChars"/> that earlier releases made). A longer one is named "h", a readable prefix
/// (its first bytes, letters and digits kept, anything else as '_'), '-', and the lowercase hex of its 128-bit XxHash128,
/// then "-n" for the n-th key whose name was taken (a hash collision); its exact bytes are in the directory's key file
/// (<see cref="KeyFileFormat"/>). No name has separators, dots or a case that matters, so no key reaches outside the
/// data directory or collides with another on a case-insensitive file system.
/// </summary>
public static class KeyNames
{
    /// <summary>
    /// Hex doubles the length: 100 bytes keeps a name, with the suffixes a restore or a drop adds, under the usual
    /// 255-byte limit of a file name.
    /// </summary>
    public const int MaxHexKeyBytes = 100;

    /// <summary>The longest directory name: "k" and the hex of 120 bytes, which releases before hashed names took hex names to.</summary>
    public const int MaxNameChars = 1 + (2 * 120);

    private const int ReadablePrefixBytes = 32;

    /// <summary>True when a new filter of a key of <paramref name="keyLength"/> bytes is named by its hex (no key file).</summary>
    public static bool IsHexNamed(int keyLength) => keyLength <= MaxHexKeyBytes;

    /// <summary>
    /// The directory name of <paramref name="key"/>: its hex form, or for a long key the hashed form, with
    /// <paramref name="collision"/> (0 for none) telling the hashed names of colliding keys apart.
    /// </summary>
    public static string DirectoryName(ReadOnlySpan<byte> key, int collision = 0)
    {
        if (IsHexNamed(key.Length))
        {
            return "k" + Convert.ToHexStringLower(key);
        }

        Span<char> prefix = stackalloc char[ReadablePrefixBytes];
        for (int i = 0; i < prefix.Length; i++)
        {
            prefix[i] = char.IsAsciiLetterOrDigit((char)key[i]) ? (char)key[i] : '_';
        }

        string name = $"h{prefix}-{Convert.ToHexStringLower(XxHash128.Hash(key))}";
        return collision == 0 ? name : $"{name}-{collision}";
    }

    /// <summary>True for a name <see cref="DirectoryName"/> can give; false for anything else found in the directory.</summary>
    public static bool IsFilterName(string directoryName) => TryParse(directoryName, out _) || IsHashedName(directoryName);

    /// <summary>True for the name of a long key, whose bytes are in its key file.</summary>
    public static bool IsHashedName(string directoryName) =>
        directoryName.Length is >= 1 + ReadablePrefixBytes + 1 + 32 and <= MaxNameChars && directoryName[0] == 'h'
        && directoryName.AsSpan(1).ContainsAnyExcept(ReadableOrSeparator) is false;

    /// <summary>The key a hex name stands for; false for a hashed name and for anything else.</summary>
    public static bool TryParse(string directoryName, out byte[] key)
    {
        key = [];
        if (directoryName.Length == 0 || directoryName[0] != 'k' || directoryName.Length % 2 != 1 || directoryName.Length > MaxNameChars)
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

    /// <summary>True when <paramref name="key"/>, read from a key file, may be named <paramref name="directoryName"/>.</summary>
    public static bool Names(string directoryName, ReadOnlySpan<byte> key)
    {
        string name = DirectoryName(key);
        return directoryName == name
            || (!IsHexNamed(key.Length) && directoryName.StartsWith(name + "-", StringComparison.Ordinal)
                && int.TryParse(directoryName.AsSpan(name.Length + 1), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out int n) && n > 0);
    }

    private static readonly System.Buffers.SearchValues<char> ReadableOrSeparator =
        System.Buffers.SearchValues.Create("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");
}
