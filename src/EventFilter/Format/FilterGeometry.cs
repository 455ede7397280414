namespace EventFilter;

/// <summary>
/// How a filter size in bytes (the <c>stream-existence-filter-size</c> setting) maps to 64-byte cache lines.
/// See docs/file-format.md, section "Size".
/// </summary>
internal readonly record struct FilterGeometry
{
    /// <summary>The name operators know the size by; every size error names it.</summary>
    public const string SizeSettingName = "stream-existence-filter-size";

    /// <summary>Bytes in one cache line, and in the header.</summary>
    public const int LineSize = 64;

    /// <summary>Bytes of filter bits in a line; the last 4 bytes hold the line checksum.</summary>
    public const int BitBytesPerLine = 60;

    /// <summary>Filter bits in a line.</summary>
    public const int BitsPerLine = BitBytesPerLine * 8;

    /// <summary>The smallest size: a header and one line.</summary>
    public const long MinSizeBytes = 2 * LineSize;

    /// <summary>
    /// The largest size: 2^32 - 1 data lines plus the header (256 GiB), because the line is chosen by a 32-bit
    /// fastrange. A 32-bit process cannot map more than 2 GiB, so it gets a lower limit.
    /// </summary>
    public static long MaxSizeBytes { get; } = Environment.Is64BitProcess ? (1L << 32) * LineSize : int.MaxValue & ~(LineSize - 1L);

    private FilterGeometry(long sizeBytes, uint lineCount)
    {
        SizeBytes = sizeBytes;
        LineCount = lineCount;
    }

    /// <summary>The configured size, exactly as given; the header records it.</summary>
    public long SizeBytes { get; }

    /// <summary>Data lines: <c>floor(size / 64) - 1</c>. The header takes the first line.</summary>
    public uint LineCount { get; }

    /// <summary>The file's length: the size rounded down to a whole number of lines.</summary>
    public long FileLength => (LineCount + 1L) * LineSize;

    /// <summary>Total filter bits.</summary>
    public long TotalBits => (long)LineCount * BitsPerLine;

    /// <summary>Maps a size in bytes to lines.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The size cannot hold a header and one line, or is beyond what this platform maps.</exception>
    public static FilterGeometry FromSize(long sizeBytes)
    {
        if (sizeBytes < MinSizeBytes || sizeBytes > MaxSizeBytes)
        {
            throw new ArgumentOutOfRangeException(
                SizeSettingName,
                sizeBytes,
                $"{SizeSettingName} must be between {MinSizeBytes} and {MaxSizeBytes} bytes (a header line plus at least one 64-byte line), or 0 to disable the filter; got {sizeBytes}.");
        }

        return new FilterGeometry(sizeBytes, checked((uint)(sizeBytes / LineSize - 1)));
    }
}
