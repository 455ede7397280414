using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The descriptor budget's count moves in one step per event (Filters/DescriptorBudget.cs): a file that opens draws
/// from the claim it was made for, so a refusal never sees it counted twice (the count was 2-4 over while a tick made a
/// pending filter's files, and refused a create that fit), and the check and the claim are one step, so two threads are
/// never both admitted to the last room. The count is the process's, so nothing may run beside these tests.
/// </summary>
[Collection(Name)]
public sealed class DescriptorBudgetTests
{
    public const string Name = "Descriptor budget";

    private static readonly FilterParameters Parameters = new(100, 0.01, 2, NonScaling: false);

    [Fact]
    public void A_pending_filters_files_draw_from_its_claim_so_the_count_never_moves_as_they_open()
    {
        using var directory = new TempDirectory();
        long before = DescriptorBudget.Held;
        var observer = new HeldWhileOpening();
        NamedFilter filter = NamedFilter.CreatePending(
            Path.Combine(directory.Path, KeyNames.DirectoryName("f"u8)), "f"u8.ToArray(), Parameters, observer, heldLog: null,
            DescriptorBudget.Claim("a test's filter", DescriptorBudget.PerNewFilter));
        filter.Hold(Digests(0, 50));
        Assert.Equal(before + DescriptorBudget.PerNewFilter, DescriptorBudget.Held);

        filter.Materialize(); // its log, holding the items, then layer 0, caught up from it
        Assert.NotEmpty(observer.Seen);
        Assert.All(observer.Seen, held => Assert.Equal(before + DescriptorBudget.PerNewFilter, held));
        Assert.Equal(before + DescriptorBudget.PerNewFilter, DescriptorBudget.Held);

        // Past layer 0's 100 items, a new layer is claimed with its check and counted once.
        Assert.Equal(AddOutcome.Done, filter.Add(Digests(50, 100), new bool[100], out _));
        Assert.Equal(2, filter.Describe().Layers);
        Assert.Equal(before + DescriptorBudget.PerNewFilter + DescriptorBudget.DescriptorsPerLayer, DescriptorBudget.Held);

        filter.Close(checkpoint: false);
        Assert.Equal(before, DescriptorBudget.Held);
    }

    [Fact]
    public void A_filter_dropped_before_its_files_gives_back_its_claim()
    {
        using var directory = new TempDirectory();
        long before = DescriptorBudget.Held;
        NamedFilter filter = NamedFilter.CreatePending(
            Path.Combine(directory.Path, KeyNames.DirectoryName("p"u8)), "p"u8.ToArray(), Parameters, new FilterObserver(), heldLog: null, claim: null);
        Assert.Equal(before + DescriptorBudget.PerNewFilter, DescriptorBudget.Held); // claimed unchecked, as a start's are

        filter.Close(checkpoint: false);
        Assert.Equal(before, DescriptorBudget.Held);
    }

    [Fact]
    public void Of_two_threads_racing_for_the_last_room_exactly_one_is_admitted()
    {
        DescriptorClaim filler = FillToTheLimit();
        try
        {
            Assert.Null(DescriptorBudget.TryClaim(1));
            Assert.Contains("RLIMIT_NOFILE", Assert.Throws<DescriptorLimitException>(() => DescriptorBudget.Claim("a test's filter", 1)).Message, StringComparison.Ordinal);

            for (int round = 0; round < 2_000; round++)
            {
                filler.Dispose();
                filler = FillToTheLimit(room: 1);
                using var start = new Barrier(2);
                var won = new DescriptorClaim?[2];
                Parallel.For(0, 2, new ParallelOptions { MaxDegreeOfParallelism = 2 }, i =>
                {
                    start.SignalAndWait();
                    won[i] = DescriptorBudget.TryClaim(1);
                });

                Assert.Equal(1, won.Count(claim => claim is not null));
                foreach (DescriptorClaim? claim in won)
                {
                    claim?.Dispose();
                }
            }
        }
        finally
        {
            filler.Dispose();
        }
    }

    // Claims all the room there is but room descriptors.
    private static DescriptorClaim FillToTheLimit(int room = 0)
    {
        long low = 0;
        long high = int.MaxValue;
        while (low < high)
        {
            long size = (low + high + 1) / 2;
            using DescriptorClaim? probe = DescriptorBudget.TryClaim((int)size);
            (low, high) = probe is null ? (low, size - 1) : (size, high);
        }

        return DescriptorBudget.TryClaim((int)low - room)!;
    }

    private static ulong[] Digests(int from, int count) =>
        [.. Enumerable.Range(from, count).Select(i => (ulong)(i + 1) * 0x9E3779B97F4A7C15UL)];

    // What the budget counted each time one of the filter's files reported its open or its catch-up.
    private sealed class HeldWhileOpening : FilterObserver
    {
        public List<long> Seen { get; } = [];

        public override void Opened(string path, bool created, VerificationResult verification) => Seen.Add(DescriptorBudget.Held);

        public override void CatchUpCompleted(CatchUpProgress progress) => Seen.Add(DescriptorBudget.Held);
    }
}

[CollectionDefinition(DescriptorBudgetTests.Name, DisableParallelization = true)]
public sealed class DescriptorBudgetCollection;
