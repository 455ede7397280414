using EventFilter;
using EventFilter.Specification;
using Npgsql;
using Xunit.Abstractions;
using Xunit.Sdk;

namespace PostgresEventStore.Tests;

/// <summary>
/// The kit can tell a safe end from one that ignores in-flight transactions: with one append's transaction held open
/// (<see cref="GatedFilter"/>) while a later one commits and the kit checkpoints, the store over its high-water mark
/// passes, and the same store over max(global_position) fails, naming rule 3.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class SafeEndMutationTests(PostgresServer server, ITestOutputHelper output)
{
    private const string Test = nameof(HostContractSpecification.Checkpoints_while_appending_claim_only_what_the_adds_reached);

    [Fact]
    public async Task The_high_water_mark_holds_the_end_below_a_held_transaction_and_passes_the_kit()
    {
        using var specification = new GatedSpecification(server, database => new HighWaterMark(database));
        await RunAsync(specification);

        (long endWhileHeld, long heldRecordEnd) = specification.Gate!.Seen!.Value;
        Assert.True(endWhileHeld < heldRecordEnd, $"the end ({endWhileHeld}) passed the held record ending at {heldRecordEnd}");
    }

    [Fact]
    public async Task An_end_at_the_highest_committed_position_jumps_a_held_transaction_and_fails_the_kit()
    {
        using var specification = new GatedSpecification(server, database => new MaxPositionEnd(database));
        XunitException failure = await Assert.ThrowsAnyAsync<XunitException>(() => RunAsync(specification));

        output.WriteLine(failure.Message);
        (long endWhileHeld, long heldRecordEnd) = specification.Gate!.Seen!.Value;
        Assert.True(endWhileHeld > heldRecordEnd, $"the naive end ({endWhileHeld}) did not pass the held record ending at {heldRecordEnd}");
        Assert.Contains("Rule 3 (checkpoint only what the adds reached)", failure.Message, StringComparison.Ordinal);
    }

    /// <summary>The kit alone, with nothing of this project's: its held-append test names the wrong end.</summary>
    [Fact]
    public async Task The_kit_by_itself_fails_an_end_at_the_highest_committed_position_naming_log_rule_1()
    {
        using var specification = new EndSpecification(server, database => new MaxPositionEnd(database));
        XunitException failure = await Assert.ThrowsAnyAsync<XunitException>(() => RunAsync(specification, nameof(HostContractSpecification.An_append_held_in_its_add_is_not_passed_by_the_end)));

        output.WriteLine(failure.Message);
        Assert.StartsWith("Log rule 1 (EndPosition is honest): EndPosition (", failure.Message, StringComparison.Ordinal);
        Assert.Contains("while its append was still in flight", failure.Message, StringComparison.Ordinal);
    }

    private static Task RunAsync(HostContractSpecification specification, string test = Test) =>
        ((Func<Task>)Delegate.CreateDelegate(typeof(Func<Task>), specification, test))();

    // Internal, so xunit does not run the kit's facts for it.
    private sealed class EndSpecification(PostgresServer server, Func<NpgsqlDataSource, CommittedEnd> newEnd) : StoreSpecificationBase(server)
    {
        protected override CommittedEnd NewEnd(NpgsqlDataSource database) => newEnd(database);
    }

    // Internal, so xunit does not run the kit's facts for it: only the one test above, through a delegate.
    private sealed class GatedSpecification(PostgresServer server, Func<NpgsqlDataSource, CommittedEnd> newEnd) : StoreSpecificationBase(server)
    {
        public GatedFilter? Gate { get; private set; }

        protected override CommittedEnd NewEnd(NpgsqlDataSource database) => newEnd(database);

        // The kit's first stream of the test; only the first life of the host is gated.
        protected override IStreamExistenceFilter Wrap(IStreamExistenceFilter filter, NpgsqlDataSource database, CommittedEnd end) =>
            Gate is null ? Gate = new GatedFilter(filter, "checkpointed-0", database, end) : filter;
    }
}
