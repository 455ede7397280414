using EventFilter.Durability;

namespace EventFilter.Tests.Durability;

/// <summary>
/// The file set of one filter path: a truncation must reach every file that may be checkpointed again, including one
/// that a resize or rebuild is still opening when the truncation comes.
/// </summary>
public sealed class FilterFilesTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void A_truncation_while_the_build_file_opens_rewinds_it_before_it_is_published()
    {
        using var files = new FilterFiles();
        files.Open(Checkpointed("serving.filter", at: 900));

        // The truncation arrives while the build's file is being opened (resumed from its own checkpoint at 800).
        CheckpointedFilter building = files.PublishBuilding(() =>
        {
            CheckpointedFilter resumed = Checkpointed("building.filter", at: 800);
            files.TruncateTo(300);
            return resumed;
        });

        Assert.Same(building, files.Building);
        Assert.Equal(300, building.DurablePosition);
        Assert.Equal(300, files.Serving!.DurablePosition);
    }

    [Fact]
    public void A_parked_file_is_published_again_and_a_truncation_reaches_it_there()
    {
        using var files = new FilterFiles();
        files.Open(Checkpointed("serving.filter", at: 900));
        CheckpointedFilter first = files.PublishBuilding(() => Checkpointed("building.filter", at: 700));
        files.Park(first);
        Assert.Null(files.Building);

        files.TruncateTo(500); // reaches the parked file
        CheckpointedFilter again = files.PublishBuilding(() => throw new InvalidOperationException("the parked file is resumed, not a new one"));

        Assert.Same(first, again);
        Assert.Equal(500, again.DurablePosition);
    }

    [Fact]
    public void A_failed_open_publishes_nothing_and_a_later_truncation_is_not_applied_to_a_stale_cut()
    {
        using var files = new FilterFiles();
        files.Open(Checkpointed("serving.filter", at: 900));
        Assert.Throws<IOException>(() => files.PublishBuilding(() =>
        {
            files.TruncateTo(100);
            throw new IOException("disk full");
        }));
        Assert.Null(files.Building);

        CheckpointedFilter building = files.PublishBuilding(() => Checkpointed("building.filter", at: 400));
        Assert.Equal(400, building.DurablePosition); // the cut at 100 came before this open, and the file was made after it
    }

    private CheckpointedFilter Checkpointed(string name, long at)
    {
        var file = new CheckpointedFilter(FilterFile.Create(_dir.File(name), new FilterFileOptions { SizeBytes = 64 << 10 }), 0, new FilterObserver());
        file.Checkpoint(at);
        return file;
    }
}
