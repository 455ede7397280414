using static EventFilter.Tests.Durability.FilterHarness;

namespace EventFilter.Tests.Durability;

/// <summary>
/// The batch lookup a host uses for a group commit's names (<see cref="IStreamExistenceFilter.MightExist(ReadOnlySpan{string}, Span{bool})"/>):
/// the same answers as one lookup per name, "maybe" for every name until ready, and nothing allocated.
/// </summary>
public sealed class BatchLookupTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_batch_answers_each_name_as_a_single_lookup_does()
    {
        var log = new InMemoryStreamLog();
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir, size: 64 * 1024), log);
        Append(log, filter, 0, 2_000);
        string[] names = [.. Enumerable.Range(0, 3_000).Select(i => i % 2 == 0 ? Names.Added(i) : Names.Absent(i))];
        var results = new bool[names.Length + 5];

        filter.MightExist(names, results);

        Assert.All(Enumerable.Range(0, names.Length), i => Assert.Equal(filter.MightExist(names[i]), results[i]));
        Assert.Contains(false, results.Take(names.Length));
        Assert.All(results.Skip(names.Length), Assert.False); // past the names, nothing is written
    }

    [Fact]
    public void Before_it_is_ready_every_answer_is_maybe()
    {
        var log = new InMemoryStreamLog();
        using var filter = new StreamExistenceFilter(Options(_dir), log);
        filter.Open();
        var results = new bool[3];

        filter.MightExist(["a", "b", "c"], results);

        Assert.Equal([true, true, true], results);
    }

    [Fact]
    public void Too_few_results_for_the_names_is_refused()
    {
        using var filter = new StreamExistenceFilter(Options(_dir), new InMemoryStreamLog());
        filter.Open();

        Assert.Throws<ArgumentException>(() => filter.MightExist(["a", "b"], new bool[1]));
    }

    [Fact]
    public async Task A_batch_lookup_allocates_nothing()
    {
        var log = new InMemoryStreamLog();
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), log);
        Append(log, filter, 0, 100);
        string[] names = [.. Enumerable.Range(0, 200).Select(Names.Added)];
        var results = new bool[names.Length];

        Assert.Equal(0, SteadyAllocations.Of(() => filter.MightExist(names, results)));
    }

    [Fact]
    public void A_batch_tells_how_many_more_names_fit()
    {
        var batch = new StreamNameBatch(maxRecords: 3);
        Assert.Equal((3, 0, 3), (batch.Capacity, batch.Count, batch.Remaining));

        Assert.True(batch.TryAdd("a"u8));
        Assert.True(batch.TryAdd("b"u8));

        Assert.Equal((3, 2, 1), (batch.Capacity, batch.Count, batch.Remaining));
    }
}
