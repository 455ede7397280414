using System.Diagnostics;
using EventFilter;
using EventFilter.PostgreSql;
using EventFilter.PostgreSql.End;
using EventFilter.Specification;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Npgsql;
using Xunit.Abstractions;
using Xunit.Sdk;

namespace PostgresEventStore.Tests;

/// <summary>
/// The kit, with nothing of this project's, tells the package's way from the usual mistakes of a database host: an end
/// at the highest committed position fails it naming log rule 1, adds made just after the commit fail it naming rule
/// 3, and a sequence with a cache fails the start naming CACHE 1. The sample passes the same test
/// (<see cref="PostgresEventStoreSpecification"/>).
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class PackageMutationTests(PostgresServer server, ITestOutputHelper output)
{
    private const string HeldAppend = nameof(HostContractSpecification.An_append_held_in_its_add_is_not_passed_by_the_end);

    [Fact]
    public async Task An_end_at_the_highest_committed_position_fails_the_kit_naming_log_rule_1()
    {
        using var specification = new Mutant(server, change: services => services.Replace(ServiceDescriptor.Singleton<EndReading, MaxPositionEnd>()));
        XunitException failure = await FailsAsync(specification);

        Assert.StartsWith("Log rule 1 (EndPosition is honest): EndPosition (", failure.Message, StringComparison.Ordinal);
        Assert.Contains("while its append was still in flight", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Adds_made_after_the_commit_fail_the_kit_naming_rule_3()
    {
        using var specification = new Mutant(server, append: AddAfterTheCommitAsync);
        XunitException failure = await FailsAsync(specification);

        Assert.StartsWith("Rule 3 (checkpoint only what the adds reached): the record of 'held-0'", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_sequence_with_a_cache_fails_the_start_naming_cache_1()
    {
        using var specification = new Mutant(server, prepare: "alter sequence events_global_position_seq cache 20");
        PostgreSqlStreamLogStartException failure = await Assert.ThrowsAsync<PostgreSqlStreamLogStartException>(() => RunAsync(specification));

        Assert.Equal("The sequence public.events_global_position_seq has CACHE 20; the safe end needs CACHE 1: ALTER SEQUENCE public.events_global_position_seq CACHE 1.", failure.Message);
    }

    [Fact]
    public async Task The_sample_passes_the_same_test()
    {
        using var specification = new Mutant(server);
        await RunAsync(specification);
    }

    // The mistake as a user makes it: the transaction commits, then its rows are added.
    private static async Task<long> AddAfterTheCommitAsync(IServiceProvider services, string stream)
    {
        long position = await services.GetRequiredService<PostgreSqlAppender>().AppendAsync(async (append, cancel) =>
        {
            await using NpgsqlCommand insert = append.CreateCommand("insert into events (stream_id, version, type, data) values ($1, 0, 'Appended', '{}') returning global_position");
            insert.Parameters.Add(new() { Value = stream });
            return (long)(await insert.ExecuteScalarAsync(cancel))!;
        });
        services.GetRequiredService<IStreamExistenceFilter>().Add(stream, position + 1);
        return position;
    }

    private async Task<XunitException> FailsAsync(HostContractSpecification specification)
    {
        long started = Stopwatch.GetTimestamp();
        XunitException failure = await Assert.ThrowsAnyAsync<XunitException>(() => RunAsync(specification));
        output.WriteLine($"failed in {Stopwatch.GetElapsedTime(started).TotalSeconds:F1} s: {failure.Message}");
        return failure;
    }

    private static Task RunAsync(HostContractSpecification specification) =>
        ((Func<Task>)Delegate.CreateDelegate(typeof(Func<Task>), specification, HeldAppend))();

    // Internal, so xunit does not run the kit's facts for it: only the one test above, through a delegate.
    private sealed class Mutant(PostgresServer server, Action<IServiceCollection>? change = null, Func<IServiceProvider, string, Task<long>>? append = null, string? prepare = null)
        : StoreSpecificationBase(server)
    {
        protected override Func<IServiceProvider, string, Task<long>>? Append => append;

        protected override void Change(IServiceCollection services) => change?.Invoke(services);

        protected override async Task PrepareAsync(NpgsqlDataSource database)
        {
            if (prepare is not null)
            {
                await using NpgsqlCommand command = database.CreateCommand(prepare);
                await command.ExecuteNonQueryAsync();
            }
        }
    }
}
