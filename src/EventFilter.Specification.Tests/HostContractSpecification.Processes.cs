using Xunit;

namespace EventFilter.Specification;

/// <summary>The multi-process scenario: several processes of the host over one log, each filter following it.</summary>
public abstract partial class HostContractSpecification
{
    private ProcessGroup? _processes;

    /// <summary>
    /// How many processes of your host can run over one log at once, each with its own filter (a web farm or a set of
    /// containers over one database table). At 2 or more,
    /// <see cref="Several_processes_over_one_log_learn_each_others_streams"/> runs that many processes (3 at most); at 1
    /// it returns at once and passes, since an xunit 2 test cannot skip itself at run time.
    /// </summary>
    /// <value>The default value is 1: one process appends to the log.</value>
    protected virtual int Processes => 1;

    /// <summary>
    /// Several processes over one log (log rules 1 and 2 across processes, and following): each started with the same
    /// host directory and a filter of its own that follows the log, they append together while each filter is
    /// checkpointed; one is killed part-way through a load while the others append on, then restarted. Every filter
    /// must hold every record below its read position, whichever process appended it, and the restarted one every
    /// record below the checkpoint it reopened from. Passes at once when <see cref="Processes"/> is 1.
    /// </summary>
    [Fact]
    public async Task Several_processes_over_one_log_learn_each_others_streams()
    {
        if (Processes < 2)
        {
            return;
        }

        _processes = new ProcessGroup(Math.Min(Processes, 3), StartHostAsync, HostDirectory, _root, SmallSize, TimeProvider);
        await SeveralProcessesCheck.RunAsync(_processes, Appenders, AppendsPerStep);
    }
}
