namespace EventFilter.Format;

/// <summary>
/// How a filter size in bytes maps to 64-byte cache lines, in one of two ways (docs/file-format.md, section "Size"):
/// as filter bits, the way EventStoreDB counts its <c>stream-existence-filter-size</c> (every 60 bytes of the setting
/// are one line, and the file adds 4 bytes per line and the header), or, in files of format versions 1 and 2 and in
/// <see cref="FilterFile"/>'s own files, as the file's length.
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

    /// <summary>
    /// The largest size counted as filter bits: 2^32 - 1 lines of 60 bytes (240 GiB), so that the file stays within
    /// <see cref="MaxSizeBytes"/>; on a 32-bit process, what fits its mapping.
    /// </summary>
    public static long MaxFilterBitsSizeBytes { get; } = ((MaxSizeBytes / LineSize) - 1) * BitBytesPerLine;

    private FilterGeometry(long sizeBytes, uint lineCount, bool sizeCountsFilterBits)
    {
        SizeBytes = sizeBytes;
        LineCount = lineCount;
        SizeCountsFilterBits = sizeCountsFilterBits;
    }

    /// <summary>The configured size, exactly as given; the header records it.</summary>
    public long SizeBytes { get; }

    /// <summary>
    /// Data lines: <c>ceil(size / 60)</c> when the size counts filter bits, else <c>floor(size / 64) - 1</c>. The
    /// header takes the line before them.
    /// </summary>
    public uint LineCount { get; }

    /// <summary>True when the size counts filter bits (8 per byte, 480 per line), as EventStoreDB's setting does.</summary>
    public bool SizeCountsFilterBits { get; }

    /// <summary>The file's length: the header and the data lines.</summary>
    public long FileLength => (LineCount + 1L) * LineSize;

    /// <summary>Total filter bits.</summary>
    public long TotalBits => (long)LineCount * BitsPerLine;

    /// <summary>Maps a size to lines, counted as filter bits or as the file's length.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The size is below the minimum, or beyond what this platform maps.</exception>
    public static FilterGeometry For(long sizeBytes, bool sizeCountsFilterBits) =>
        sizeCountsFilterBits ? FromFilterBits(sizeBytes) : FromSize(sizeBytes);

    /// <summary>Maps a size counted as filter bits to lines: every 60 bytes (480 bits) is one line, the last one rounded up.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The size is below the minimum or above <see cref="MaxFilterBitsSizeBytes"/>.</exception>
    public static FilterGeometry FromFilterBits(long sizeBytes)
    {
        if (sizeBytes < MinSizeBytes || sizeBytes > MaxFilterBitsSizeBytes)
        {
            throw new ArgumentOutOfRangeException(
                SizeSettingName,
                sizeBytes,
                $"{SizeSettingName} must be between {MinSizeBytes} and {MaxFilterBitsSizeBytes} bytes of filter bits, or 0 to disable the filter; got {sizeBytes}.");
        }

        return new FilterGeometry(sizeBytes, checked((uint)((sizeBytes + BitBytesPerLine - 1) / BitBytesPerLine)), sizeCountsFilterBits: true);
    }

    /// <summary>Maps a size counted as the file's length to lines.</summary>
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

        return new FilterGeometry(sizeBytes, checked((uint)(sizeBytes / LineSize - 1)), sizeCountsFilterBits: false);
    }
}
