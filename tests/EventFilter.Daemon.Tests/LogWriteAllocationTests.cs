using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The add path of a named filter allocates nothing once warm, its log write included: the writer takes the queue by
/// swapping two reused buffers (Filters/UnwrittenDigests.cs), so moving the write out of the add lock cost no allocation.
/// </summary>
public sealed class LogWriteAllocationTests
{
    [Fact]
    public void An_add_and_the_write_of_its_digest_allocate_nothing_once_warm()
    {
        using var directory = new TempDirectory();
        using NamedFilter filter = NamedFilter.Create(
            Path.Combine(directory.Path, KeyNames.DirectoryName("f"u8)), "f"u8.ToArray(), new FilterParameters(1_000_000, 0.01, 2, NonScaling: false), new FilterObserver(), claim: null);
        ulong next = 1;
        var digests = new ulong[16];
        var added = new bool[16];
        AddOutcome outcome = AddOutcome.Done;

        long allocated = SteadyAllocations.Of(() =>
        {
            for (int i = 0; i < digests.Length; i++)
            {
                digests[i] = next++ * 0x9E3779B97F4A7C15UL;
            }

            outcome = filter.Add(digests, added, out _) is var done and not AddOutcome.Done ? done : outcome;
            filter.WriteLog();
        });

        Assert.Equal(AddOutcome.Done, outcome);
        Assert.Equal(0, allocated);
        Assert.Equal((long)next - 1, filter.Count);
    }
}
