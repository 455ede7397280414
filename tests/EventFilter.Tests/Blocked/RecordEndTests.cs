namespace EventFilter.Tests.Blocked;

/// <summary>
/// The highest record end a file keeps of its host adds (docs/design.md, "Host contract"): what a file built beside
/// it must cover. Kept per stripe, so a raise must never be lost, whatever path the add takes.
/// </summary>
public sealed class RecordEndTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void An_add_of_a_known_name_still_raises_the_record_end()
    {
        using FilterFile file = FilterFile.Create(_dir.File("f.filter"), new FilterFileOptions { SizeBytes = 1 << 16 });
        Assert.True(file.Add("stream", 10));

        // Every bit is already set: the add takes its early exit, and must raise the end all the same.
        Assert.False(file.Add("stream", 20));
        Assert.Equal(20, file.HighestRecordEnd);

        file.Add("other", 5);
        Assert.Equal(20, file.HighestRecordEnd);
    }

    [Fact]
    public void Concurrent_adders_never_lose_the_highest_end()
    {
        // A small file, so both writers land on the same stripes all the time, half of them on known names.
        using FilterFile file = FilterFile.Create(_dir.File("f.filter"), new FilterFileOptions { SizeBytes = 64 * 64 });
        const int PerWriter = 200_000;
        Parallel.For(0, 2, writer =>
        {
            for (int i = 0; i < PerWriter; i++)
            {
                long end = (i * 2L) + writer + 1;
                file.Add($"s-{i % 1000}", end);
            }
        });

        Assert.Equal(2L * PerWriter, file.HighestRecordEnd);
    }

    [Fact]
    public void A_cut_caps_the_record_end()
    {
        using FilterFile file = FilterFile.Create(_dir.File("f.filter"), new FilterFileOptions { SizeBytes = 1 << 16 });
        for (int i = 0; i < 1000; i++)
        {
            file.Add($"s-{i}", 100 + i);
        }

        file.CapRecordEnds(500);
        Assert.Equal(500, file.HighestRecordEnd);
        file.Add("after-the-cut", 501);
        Assert.Equal(501, file.HighestRecordEnd);
    }

    [Fact]
    public void Adds_without_a_record_end_keep_none()
    {
        using FilterFile file = FilterFile.Create(_dir.File("f.filter"), new FilterFileOptions { SizeBytes = 1 << 16 });
        file.Add("stream");
        file.AddBatch(["a", "b"]);
        Assert.Equal(0, file.HighestRecordEnd);
    }
}
