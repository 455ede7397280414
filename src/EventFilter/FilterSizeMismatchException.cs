namespace EventFilter;

/// <summary>The file was made for a different <c>stream-existence-filter-size</c> than the one configured.</summary>
public sealed class FilterSizeMismatchException : FilterFileException
{
    /// <summary>Creates the error.</summary>
    internal FilterSizeMismatchException(string path, long fileSizeBytes, long configuredSizeBytes)
        : base(path, $"it was made for stream-existence-filter-size {fileSizeBytes} bytes but {configuredSizeBytes} is configured")
    {
        FileSizeBytes = fileSizeBytes;
        ConfiguredSizeBytes = configuredSizeBytes;
    }

    /// <summary>The size recorded in the file's header.</summary>
    internal long FileSizeBytes { get; }

    /// <summary>The size the caller asked for.</summary>
    internal long ConfiguredSizeBytes { get; }
}
