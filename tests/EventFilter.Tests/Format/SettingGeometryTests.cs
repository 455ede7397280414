using EventFilter.Errors;
using EventFilter.Format;
using EventFilter.Tests.Durability;
using static EventFilter.Tests.Durability.FilterHarness;

namespace EventFilter.Tests.Format;

/// <summary>
/// The stream-existence-filter-size counts filter bits, as EventStoreDB's does (docs/file-format.md, "Size"), and a
/// file made when it counted the file's length keeps opening at the same setting, with its own geometry.
/// </summary>
public sealed class SettingGeometryTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData(128, 3, 256)]
    [InlineData(180, 3, 256)]
    [InlineData(181, 4, 320)]
    [InlineData(256_000_000, 4_266_667, 273_066_752)]
    public void A_setting_counts_filter_bits_one_line_per_60_bytes_rounding_up(long setting, uint lines, long fileLength)
    {
        FilterGeometry geometry = FilterGeometry.FromFilterBits(setting);
        Assert.Equal(lines, geometry.LineCount);
        Assert.Equal(fileLength, geometry.FileLength);
        Assert.True(geometry.TotalBits >= setting * 8);
    }

    [Fact]
    public void The_largest_setting_fills_every_line_a_32_bit_fastrange_reaches()
    {
        Assert.Equal(uint.MaxValue, FilterGeometry.FromFilterBits(FilterGeometry.MaxFilterBitsSizeBytes).LineCount);
        Assert.Equal(FilterGeometry.MaxFilterBitsSizeBytes, FilterFileOptions.MaxSizeBytes);
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => FilterGeometry.FromFilterBits(FilterGeometry.MaxFilterBitsSizeBytes + 1));
        Assert.Equal("stream-existence-filter-size", error.ParamName);
    }

    [Fact]
    public async Task A_new_stream_existence_filter_is_a_version_3_file_of_the_settings_bits()
    {
        var log = new InMemoryStreamLog();
        using (StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir, size: 1_000_000), log))
        {
            Append(log, filter, 0, 1_000);
        }

        using FilterFile file = FilterFile.OpenExisting(Options(_dir).FilterPath);
        Assert.Equal(FilterHeader.FilterBitsVersion, file.Header.Version);
        Assert.Equal(16_667u, file.Header.LineCount);
        Assert.Equal(1_000_000, file.Header.SizeBytes);
        Assert.Equal(64L * 16_668, new FileInfo(Options(_dir).FilterPath).Length);
    }

    [Fact]
    public async Task A_file_sized_by_its_length_keeps_opening_at_the_same_setting_without_a_resize()
    {
        // A file from before the setting counted bits: version 1, 15,624 lines for 1,000,000 bytes.
        string path = Options(_dir).FilterPath;
        Directory.CreateDirectory(_dir.Path);
        var log = new InMemoryStreamLog();
        Guid fileId;
        using (FilterFile earlier = FilterFile.Create(path, new FilterFileOptions { SizeBytes = 1_000_000 }))
        {
            for (int i = 0; i < 5_000; i++)
            {
                earlier.Add(Names.Added(i));
                log.Append(Names.Added(i));
            }

            earlier.Flush();
            fileId = earlier.Header.FileId;
        }

        var observer = new RecordingObserver();
        using (StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir, size: 1_000_000), log, observer))
        {
            Assert.Equal(0, FalseNegatives(filter, 5_000));
            Assert.Empty(observer.Rebuilds);
            Assert.Equal(0, observer.ResizesCompleted);
        }

        using FilterFile reopened = FilterFile.OpenExisting(path);
        Assert.Equal(fileId, reopened.Header.FileId);
        Assert.Equal(FilterHeader.CurrentVersion, reopened.Header.Version);
        Assert.Equal(15_624u, reopened.Header.LineCount);
    }

    [Fact]
    public async Task A_resize_of_a_file_sized_by_its_length_builds_a_version_3_file_and_loses_no_name()
    {
        string path = Options(_dir).FilterPath;
        Directory.CreateDirectory(_dir.Path);
        var log = new InMemoryStreamLog();
        using (FilterFile earlier = FilterFile.Create(path, new FilterFileOptions { SizeBytes = 1 << 18 }))
        {
            for (int i = 0; i < 5_000; i++)
            {
                earlier.Add(Names.Added(i));
                log.Append(Names.Added(i));
            }

            earlier.Flush();
        }

        var observer = new RecordingObserver();
        using (StreamExistenceFilter filter = new(Options(_dir, size: 1 << 20), log, observer))
        {
            filter.Open();
            await filter.CatchUpAsync(CancellationToken.None);
            Assert.Equal(1, observer.ResizesCompleted);
            Assert.Equal(0, FalseNegatives(filter, 5_000));
        }

        using FilterFile resized = FilterFile.OpenExisting(path);
        Assert.Equal(FilterHeader.FilterBitsVersion, resized.Header.Version);
        Assert.Equal(FilterGeometry.FromFilterBits(1 << 20).LineCount, resized.Header.LineCount);
    }

    [Fact]
    public void A_version_3_header_round_trips_with_its_lines_per_key()
    {
        var header = new FilterHeader(FilterHeader.FilterBitsVersion, 7, 1_000_000, 16_667, 0, Guid.NewGuid(), linesPerKey: 2);
        var bytes = new byte[64];
        header.WriteTo(bytes);
        Assert.Equivalent(header, FilterHeader.Read(bytes, "x"), strict: true);
        Assert.Equal(FilterGeometry.FromFilterBits(1_000_000), FilterHeader.Read(bytes, "x").Geometry);
    }

    [Theory]
    [InlineData(FilterHeader.FilterBitsVersion, 15_624)] // the line count of the file-length meaning
    [InlineData(FilterHeader.CurrentVersion, 16_667)] // the line count of the filter-bits meaning
    public void A_line_count_that_does_not_match_its_versions_meaning_is_rejected(ushort version, uint lines)
    {
        var bytes = new byte[64];
        new FilterHeader(version, 6, 1_000_000, lines, 0, Guid.NewGuid()).WriteTo(bytes);
        var error = Assert.Throws<InvalidFilterHeaderException>(() => FilterHeader.Read(bytes, "x"));
        Assert.Equal(HeaderProblem.BadField, error.Problem);
    }

    [Fact]
    public void The_example_header_of_the_file_format_page_is_what_a_new_file_writes()
    {
        var header = new FilterHeader(FilterHeader.FilterBitsVersion, StreamExistenceFilterOptions.DefaultK, 1_000_000, 16_667, 0, new Guid("00112233-4455-6677-8899-aabbccddeeff"));
        var bytes = new byte[64];
        header.WriteTo(bytes);
        Assert.Equal(
            "455646494C544552030008000100000040420F00000000001B410000000000000000000000000000" +
            "33221100554477668899AABBCCDDEEFF00000000",
            Convert.ToHexString(bytes[..60]));
    }

    [Theory]
    [InlineData(1_000_000, 0.01)]
    [InlineData(256_000_000, 0.02)]
    public void SettingFor_gives_the_smallest_setting_that_meets_the_rate(double names, double rate)
    {
        long setting = FalsePositiveModel.SettingFor(names, rate, 6);
        Assert.True(FalsePositiveModel.Expected(names, FalsePositiveModel.LinesForSetting(setting), 6) <= rate);
        Assert.True(FalsePositiveModel.Expected(names, FalsePositiveModel.LinesForSetting(setting - 60), 6) > rate);
    }
}
