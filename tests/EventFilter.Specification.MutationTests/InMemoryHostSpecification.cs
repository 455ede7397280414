using System.Collections.Concurrent;

namespace EventFilter.Specification.MutationTests;

/// <summary>The kit passes for a host that keeps the contract.</summary>
public sealed class ReferenceHostSpecification() : InMemoryHostSpecificationBase(Mutation.None);

/// <summary>
/// The kit over <see cref="InMemoryHost"/>; each directory's log lives as long as the test, across restarts, and every
/// host started over a directory is one more process over its log (three at once in the multi-process scenario). Public
/// and abstract: xunit runs the kit's facts for <see cref="ReferenceHostSpecification"/>, while the mutants
/// (<see cref="MutantSpecification"/>, internal) run only where <see cref="MutationTests"/> calls them.
/// </summary>
public abstract class InMemoryHostSpecificationBase(Mutation mutation) : HostContractSpecification
{
    private readonly ConcurrentDictionary<string, SharedInMemoryLog> _logs = new();

    protected override int AppendsPerStep => 100;

    protected override int Processes => 3;

    protected override Task<IHostUnderTest> StartHostAsync(string directory, IStreamExistenceFilter filter) =>
        Task.FromResult<IHostUnderTest>(InMemoryHost.Start(_logs.GetOrAdd(directory, _ => new SharedInMemoryLog()), filter, mutation));

    protected override Task CutLogAsync(string directory, long position)
    {
        _logs[directory].Records.TruncateTo(position);
        return Task.CompletedTask;
    }
}

/// <summary>The kit over a broken host; internal, so xunit does not run its facts by themselves.</summary>
internal sealed class MutantSpecification(Mutation mutation) : InMemoryHostSpecificationBase(mutation);
