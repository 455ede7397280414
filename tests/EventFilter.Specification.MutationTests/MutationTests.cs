using System.Diagnostics;
using System.Reflection;
using Xunit.Abstractions;
using Xunit.Sdk;

namespace EventFilter.Specification.MutationTests;

/// <summary>
/// Each broken host fails the kit, and the failure names the rule it broke: the kit can fail, and says why.
/// </summary>
public sealed class MutationTests(ITestOutputHelper output)
{
    public static TheoryData<Mutation, string, string> Cases => new()
    {
        { Mutation.AddsWhileStarting, nameof(HostContractSpecification.Concurrent_appends_add_every_record_with_its_end), "Rule 1 (open the filter before the first add)" },
        { Mutation.SkipsSomeAdds, nameof(HostContractSpecification.Concurrent_appends_add_every_record_with_its_end), "Rule 2 (add every record, with the position just past it)" },
        { Mutation.GivesTheRecordStart, nameof(HostContractSpecification.Concurrent_appends_add_every_record_with_its_end), "Rule 2 (add every record, with the position just past it)" },
        { Mutation.GivesTheRecordStart, nameof(HostContractSpecification.An_online_rebuild_while_appending_loses_no_stream), "the online rebuild swapped in its new file without the record" },
        { Mutation.GivesTheRecordStart, nameof(HostContractSpecification.A_resize_while_appending_loses_no_stream), "the resize swapped in its new file without the record" },
        { Mutation.GivesTheDurableEnd, nameof(HostContractSpecification.A_resize_while_appending_loses_no_stream), "the resize swapped in its new file without the record" },
        { Mutation.GivesTheDurableEnd, nameof(HostContractSpecification.An_online_rebuild_while_appending_loses_no_stream), "the online rebuild swapped in its new file without the record" },
        { Mutation.AddsOutOfOrderAroundItsCheckpoint, nameof(HostContractSpecification.Checkpoints_while_appending_claim_only_what_the_adds_reached), "Rule 3 (checkpoint only what the adds reached)" },
        { Mutation.CutsWithoutTelling, nameof(HostContractSpecification.A_cut_log_loses_no_acknowledged_stream), "Rule 4 (tell the filter when the log is cut)" },
        { Mutation.AppendsAfterStopping, nameof(HostContractSpecification.A_clean_stop_adds_nothing_after_the_filter_closes), "Rule 5 (stop appending before the filter stops)" },
        { Mutation.ReadSkipsARecord, nameof(HostContractSpecification.A_reopen_after_an_unclean_stop_finds_every_acknowledged_stream), "Log rule 2 (ReadAsync returns every record)" },
        { Mutation.ReadSkipsARecord, nameof(HostContractSpecification.Concurrent_appends_add_every_record_with_its_end), "Log rule 2 (ReadAsync returns every record)" },
        { Mutation.ReadComesBackEmptyOnce, nameof(HostContractSpecification.Concurrent_appends_add_every_record_with_its_end), "Log rule 2 (ReadAsync returns every record)" },
        { Mutation.EndLagsBehind, nameof(HostContractSpecification.Concurrent_appends_add_every_record_with_its_end), "Log rule 1 (EndPosition is honest)" },
        { Mutation.EndAheadOfTheRecords, nameof(HostContractSpecification.Concurrent_appends_add_every_record_with_its_end), "Log rule 1 (EndPosition is honest)" },
        { Mutation.EndGoesBack, nameof(HostContractSpecification.Checkpoints_while_appending_claim_only_what_the_adds_reached), "Log rule 1 (EndPosition is honest)" },
        { Mutation.ReadsPastTheEnd, nameof(HostContractSpecification.Concurrent_appends_add_every_record_with_its_end), "Log rule 3 (positions increase, within EndPosition)" },
        { Mutation.ReadsOnlyItsOwnRecords, nameof(HostContractSpecification.Several_processes_over_one_log_learn_each_others_streams), "Log rule 2 (ReadAsync returns every record)" },
        { Mutation.EndCoversOnlyItsOwnAppends, nameof(HostContractSpecification.Several_processes_over_one_log_learn_each_others_streams), "Log rule 1 (EndPosition is honest)" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public async Task A_broken_host_fails_the_kit_naming_its_rule(Mutation mutation, string test, string rule)
    {
        using var specification = new MutantSpecification(mutation);
        var run = (Func<Task>)Delegate.CreateDelegate(typeof(Func<Task>), specification, test);
        var clock = Stopwatch.StartNew();

        XunitException failure = await Assert.ThrowsAnyAsync<XunitException>(run);

        output.WriteLine($"{mutation} fails {test} in {clock.Elapsed.TotalSeconds:F1} s: {failure.Message}");
        Assert.Contains(rule, failure.Message, StringComparison.Ordinal);

        // A broken host or log is named within seconds, never after the kit's two-minute patience runs out.
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), $"the failure took {clock.Elapsed.TotalSeconds:F1} s");
    }

    /// <summary>Each mutant that breaks a log rule only across processes, with every test of the kit but the multi-process one.</summary>
    public static TheoryData<Mutation, string> SingleProcessCases()
    {
        var cases = new TheoryData<Mutation, string>();
        foreach (Mutation mutation in new[] { Mutation.ReadsOnlyItsOwnRecords, Mutation.EndCoversOnlyItsOwnAppends })
        {
            foreach (MethodInfo test in typeof(HostContractSpecification).GetMethods().Where(m => m.GetCustomAttribute<FactAttribute>() is not null))
            {
                if (test.Name != nameof(HostContractSpecification.Several_processes_over_one_log_learn_each_others_streams))
                {
                    cases.Add(mutation, test.Name);
                }
            }
        }

        return cases;
    }

    /// <summary>Alone, a process of these mutants sees exactly the log: only the multi-process scenario can catch them.</summary>
    [Theory]
    [MemberData(nameof(SingleProcessCases))]
    public async Task A_mutant_broken_only_across_processes_passes_each_single_process_test(Mutation mutation, string test)
    {
        using var specification = new MutantSpecification(mutation);
        await ((Func<Task>)Delegate.CreateDelegate(typeof(Func<Task>), specification, test))();
    }
}
