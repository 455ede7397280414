namespace EventFilter.Specification;

/// <summary>
/// Several processes of the host over one log (a web farm over one database), each filter following the log: they
/// append together while the kit checkpoints every filter at the log's end; the last process is killed part-way
/// through a load while the others append on, and restarted over the same directories; all append again, then the
/// restarted one alone. Each filter must then hold every record below its read position, whichever process appended
/// it, and the restarted one every record below the checkpoint it reopened from.
/// </summary>
internal static class SeveralProcessesCheck
{
    public static async Task RunAsync(ProcessGroup group, int appenders, int appendsPerStep)
    {
        var acknowledged = new List<string>[group.Count];
        for (int process = 0; process < group.Count; process++)
        {
            await group.StartAsync(process).ConfigureAwait(false);
            acknowledged[process] = [];
        }

        int victim = group.Count - 1;
        int[] others = [.. Enumerable.Range(0, victim)];
        await AppendAsync(group, acknowledged, [.. group.Live], "together", appenders, appendsPerStep, also: null).ConfigureAwait(false);

        // The kill: a quarter of the way through the victim's load, with one of its appends held inside its add, so that
        // it dies with appends in flight. What it had acknowledged before is kept; what it appended meanwhile is in the
        // log or not, and is checked from the log.
        KitRun dying = group[victim];
        string killedPrefix = $"p{victim + 1}-killed";
        using AddHold inFlight = dying.Filter.HoldAddOf($"{killedPrefix}-{appendsPerStep / 4}");
        Task<IReadOnlyList<string>> dyingLoad = dying.AppendAsync(killedPrefix, appenders, appendsPerStep);
        Task killed = KillInFlightAsync(group, victim, inFlight, dyingLoad);
        await AppendAsync(group, acknowledged, others, "during-kill", appenders, appendsPerStep, also: killed).ConfigureAwait(false);
        await dying.UntilAsync(Task.WhenAny(dyingLoad), $"the appends of {group.Name(victim)} in flight when it was killed").ConfigureAwait(false);
        _ = dyingLoad.Exception; // appends refused by the killed host are expected; observed here, not left to the finalizer
        await HostAssert.CleanAsync(dying).ConfigureAwait(false);
        await AppendAsync(group, acknowledged, others, "while-down", appenders, appendsPerStep, also: null).ConfigureAwait(false);

        await RestartAsync(group, victim).ConfigureAwait(false);
        await AppendAsync(group, acknowledged, [.. group.Live], "after-restart", appenders, appendsPerStep, also: null).ConfigureAwait(false);

        // The restarted process alone: the others, idle now, learn these streams only by following the log.
        await AppendAsync(group, acknowledged, [victim], "alone", appenders, appendsPerStep / 4, also: null).ConfigureAwait(false);

        await ProcessAssert.EveryEndCoversEveryAppendAsync(group).ConfigureAwait(false);
        ProcessAssert.LogViews views = await ProcessAssert.ReadEveryLogAsync(group).ConfigureAwait(false);
        foreach (int process in group.Live)
        {
            await ProcessAssert.ReadToTheEndAsync(group, process, views).ConfigureAwait(false);
            KitRun run = group[process];
            ProcessAssert.EveryRecordHeld(group, process, views, run.Inner.ReadPosition, "its read position", "once it has read the log to its end");
            HostAssert.EveryStreamFound(run, acknowledged[process], $"in {group.Name(process)}, once it has read the log to its end");
        }

        foreach (int process in group.Live)
        {
            KitRun run = group[process];
            await run.StopAsync().ConfigureAwait(false);
            await HostAssert.CleanAsync(run).ConfigureAwait(false);
        }
    }

    // Each of the processes appends streams of its own (prefixed with its number) from appenders tasks, while the kit
    // checkpoints every running filter; also, if given, runs beside them and is awaited with them.
    private static async Task AppendAsync(ProcessGroup group, List<string>[] acknowledged, int[] processes, string step, int appenders, int count, Task? also)
    {
        Task<IReadOnlyList<string>>[] loads = [.. processes.Select(p => group[p].AppendAsync($"p{p + 1}-{step}", appenders, count))];

        // Bounded: each load waits with KitRun.UntilAsync, and so does the kill.
        await group.CheckpointWhileAsync(Task.WhenAll([.. loads, also ?? Task.CompletedTask])).ConfigureAwait(false);
        for (int i = 0; i < processes.Length; i++)
        {
            acknowledged[processes[i]].AddRange(await loads[i].ConfigureAwait(false));
        }
    }

    private static async Task KillInFlightAsync(ProcessGroup group, int victim, AddHold inFlight, Task load)
    {
        KitRun dying = group[victim];
        await dying.UntilAsync(Task.WhenAny(inFlight.Reached, load), $"the add of '{inFlight.Stream}', part-way through the load {group.Name(victim)} is killed in").ConfigureAwait(false);

        // Dead first, so that the held add, released to let the host stop, reaches nothing: it dies in flight.
        dying.Filter.Crash();
        inFlight.Release();
        await group.KillAsync(victim).ConfigureAwait(false);
    }

    // A restart over the same directories: before its catch-up, the filter's checkpoint is what it claimed in its last
    // life; once ready, every record below that claim must be in it, since a catch-up reads only from there.
    private static async Task RestartAsync(ProcessGroup group, int process)
    {
        KitRun restarted = await group.StartAsync(process, catchUp: false).ConfigureAwait(false);
        long claimed = restarted.Inner.CheckpointPosition ?? 0;
        restarted.StartCatchUp();
        await restarted.UntilAsync(restarted.Inner.WhenReady, $"the catch-up of {group.Name(process)}'s filter after its restart").ConfigureAwait(false);
        ProcessAssert.LogViews views = await ProcessAssert.ReadEveryLogAsync(group).ConfigureAwait(false);
        ProcessAssert.EveryRecordHeld(group, process, views, claimed, "the checkpoint it reopened from", "after it was killed and restarted");
    }
}
