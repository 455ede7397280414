using EventFilter.Errors;
using EventFilter.Format;

namespace EventFilter.Tests.Format;

public sealed class HeaderAndSizeTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData(-1)]
    [InlineData(0)]
    [InlineData(127)]
    public void A_size_that_cannot_hold_a_header_and_a_line_names_the_setting_and_range(long size)
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => FilterGeometry.FromSize(size));
        Assert.Equal("stream-existence-filter-size", error.ParamName);
        Assert.Contains("between 128 and", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_size_beyond_what_the_platform_maps_is_rejected_and_creates_no_file()
    {
        string path = _dir.File("filter.bin");
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => FilterFile.Open(path, new FilterFileOptions { SizeBytes = FilterGeometry.MaxSizeBytes + 1 }));
        Assert.Equal("stream-existence-filter-size", error.ParamName);
        Assert.False(File.Exists(path));
    }

    [Theory]
    [InlineData(128, 1, 128)]
    [InlineData(191, 1, 128)]
    [InlineData(192, 2, 192)]
    [InlineData(256_000_000, 3_999_999, 256_000_000)]
    public void Size_maps_to_lines_rounding_down(long size, uint lines, long fileLength)
    {
        FilterGeometry geometry = FilterGeometry.FromSize(size);
        Assert.Equal(lines, geometry.LineCount);
        Assert.Equal(fileLength, geometry.FileLength);
    }

    [Fact]
    public void Header_round_trips_with_a_valid_checksum()
    {
        var header = new FilterHeader(1, 6, 1 << 20, (1u << 14) - 1, 0xDEADBEEF, Guid.NewGuid());
        var bytes = new byte[64];
        header.WriteTo(bytes);
        Assert.Equal("EVFILTER"u8.ToArray(), bytes[..8]);
        Assert.Equivalent(header, FilterHeader.Read(bytes, "x"), strict: true);
    }

    [Theory]
    [InlineData(0, (int)HeaderProblem.BadMagic)]
    [InlineData(9, (int)HeaderProblem.BadChecksum)]
    [InlineData(20, (int)HeaderProblem.BadChecksum)]
    [InlineData(62, (int)HeaderProblem.BadChecksum)]
    public void A_corrupt_header_gives_its_typed_error(int offset, int expected)
    {
        string path = NewFilter(1 << 16);
        FlipByte(path, offset);
        var error = Assert.Throws<InvalidFilterHeaderException>(() => FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 16 }));
        Assert.Equal((HeaderProblem)expected, error.Problem);
        Assert.Equal(path, error.FilePath);
        Assert.Contains(path, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_truncated_file_gives_a_length_error()
    {
        string path = NewFilter(1 << 16);
        using (var stream = new FileStream(path, FileMode.Open)) { stream.SetLength(stream.Length - 64); }
        var error = Assert.Throws<FilterFileLengthException>(() => FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 16 }));
        Assert.True(error.IsTruncated);
    }

    [Fact]
    public void An_extended_file_gives_a_length_error()
    {
        string path = NewFilter(1 << 16);
        using (var stream = new FileStream(path, FileMode.Open)) { stream.SetLength(stream.Length + 4096); }
        var error = Assert.Throws<FilterFileLengthException>(() => FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 16 }));
        Assert.False(error.IsTruncated);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(10)]
    public void A_file_shorter_than_a_header_is_rejected(int length)
    {
        string path = _dir.File("short.bin");
        File.WriteAllBytes(path, new byte[length]);
        Assert.ThrowsAny<FilterFileException>(() => FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 16 }));
    }

    [Fact]
    public void A_file_made_for_another_size_gives_a_size_mismatch()
    {
        string path = NewFilter(1 << 16);
        var error = Assert.Throws<FilterSizeMismatchException>(() => FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 17 }));
        Assert.Equal(1 << 16, error.FileSizeBytes);
        Assert.Equal(1 << 17, error.ConfiguredSizeBytes);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(33)]
    public void An_out_of_range_k_is_rejected(int k)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new FilterFileOptions { SizeBytes = 1 << 16, K = k }.Validate());
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(1.0)]
    [InlineData(-0.5)]
    [InlineData(double.NaN)]
    public void A_threshold_outside_zero_to_one_is_rejected(double threshold)
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new FilterFileOptions { SizeBytes = 1 << 16, CorruptionThreshold = threshold }.Validate());
    }

    private string NewFilter(long size)
    {
        string path = _dir.File("filter.bin");
        FilterFile.Open(path, new FilterFileOptions { SizeBytes = size }).Dispose();
        return path;
    }

    private static void FlipByte(string path, int offset)
    {
        using var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        stream.Position = offset;
        int old = stream.ReadByte();
        stream.Position = offset;
        stream.WriteByte((byte)(old ^ 0x5A));
    }
}
