using System.Collections.Concurrent;
using Xunit.Sdk;

namespace EventFilter.Specification;

/// <summary>
/// One append held inside its add (<see cref="AddHold"/>) while later appends run: the kit watches whether the log's
/// end passes the held record while a later append's add has returned. Then a checkpoint at the end would claim the held
/// name before the filter has it, and a crash would lose it. It names which rule the host broke: an end that jumped a
/// transaction in flight (log rule 1: the held record is not yet readable), or a record made durable before its add
/// that the adds of later records overtook (rule 3). No timing decides a failure: a host whose later appends cannot
/// complete while one is held (one writer, or acknowledgement at the end) passes after <see cref="HeldFor"/>.
/// </summary>
internal static class HeldAppendCheck
{
    /// <summary>How long the kit watches later appends while one is held, at most.</summary>
    public static readonly TimeSpan HeldFor = TimeSpan.FromSeconds(2);

    public static async Task RunAsync(KitRun run, int appenders, int laterAppends)
    {
        const string Held = "held-0";
        using AddHold hold = run.Filter.HoldAddOf(Held);
        // Off this thread: a host that writes on its caller's thread would hold the kit itself inside the add.
        Task heldAppend = Task.Run(() => run.Host.AppendAsync(Held, CancellationToken.None));
        long heldEnd = await hold.Reached.WaitAsync(KitRun.Patience).ConfigureAwait(false);

        var acknowledged = new ConcurrentDictionary<string, bool>(StringComparer.Ordinal);
        using var stop = new CancellationTokenSource();
        Task later = Task.WhenAll(Enumerable.Range(0, appenders).Select(a => Task.Run(async () =>
        {
            for (int i = 0; i < laterAppends && !stop.IsCancellationRequested; i++)
            {
                string stream = $"after-held-{a}-{i}";
                await run.Host.AppendAsync(stream, CancellationToken.None).ConfigureAwait(false);
                acknowledged[stream] = true;
            }
        })));

        // On a thread of its own: a host that adds under its log's lock blocks EndPosition while the add is held, and
        // then there is no end to read; the kit releases the hold after twice HeldFor and ignores any later reading.
        var released = new Released();
        Task<(long, string, long)?> watching = Task.Run(() => WatchAsync(run, heldEnd, later, acknowledged, released));
        (long End, string Stream, long RecordEnd)? jumped =
            await Task.WhenAny(watching, Task.Delay(HeldFor * 2, run.Time)).ConfigureAwait(false) == watching ? await watching.ConfigureAwait(false) : null;
        released.Set();
        bool heldReadable = jumped is not null && await ReadableAsync(run, heldEnd).ConfigureAwait(false);
        await stop.CancelAsync().ConfigureAwait(false);
        hold.Release();
        await Task.WhenAll(heldAppend, later).WaitAsync(KitRun.Patience).ConfigureAwait(false);

        if (jumped is (long end, string stream, long recordEnd))
        {
            throw new XunitException(heldReadable
                ? $"{HostContractRules.Rule3}: the record of '{Held}' (ending at {heldEnd}) was durable while its add had not returned, and the add of a later record ('{stream}', ending at {recordEnd}) had returned with the log's end at {end}: a checkpoint there claims '{Held}' before the filter has it, and a crash loses it. Add each record before its commit or flush, or register an ICheckpointPositionSource that stays below every add in flight."
                : $"{HostContractRules.LogEnd}: EndPosition ({end}) passed the record of '{Held}' (ending at {heldEnd}) while its append was still in flight (held in its add, before its commit), once a later append ('{stream}', ending at {recordEnd}) had committed. With several writing transactions the highest committed position is not a safe end: the end must stay below every transaction in flight (a high-water mark; docs/hosting-guide.md, \"A database log\").");
        }
    }

    // Until the later appends are done (or HeldFor has passed): the end read after an acknowledged later add that lies
    // past the held record, if that end covers the held record.
    private static async Task<(long, string, long)?> WatchAsync(KitRun run, long heldEnd, Task later, ConcurrentDictionary<string, bool> acknowledged, Released released)
    {
        long since = run.Time.GetTimestamp();
        while (true)
        {
            bool done = later.IsCompleted || run.Time.GetElapsedTime(since) >= HeldFor;
            long end = run.Log.EndPosition;
            if (released.IsSet)
            {
                return null; // read after the hold was released: it says nothing of the held append
            }

            if (end >= heldEnd && run.Filter.Adds.FirstOrDefault(a => a.RecordEnd > heldEnd && acknowledged.ContainsKey(a.Stream)) is { Stream: not null } overtaking)
            {
                return (end, overtaking.Stream, overtaking.RecordEnd);
            }

            if (done)
            {
                return null;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(1), run.Time).ConfigureAwait(false);
        }
    }

    private sealed class Released
    {
        private volatile bool _set;

        public bool IsSet => _set;

        public void Set() => _set = true;
    }

    // Whether the held record is durable already (its add came after its commit), for the message only.
    private static async Task<bool> ReadableAsync(KitRun run, long recordEnd)
    {
        try
        {
            return (await LogCheck.RecordsAsync(run.Host.Log, run.Time).ConfigureAwait(false)).Any(r => r.End == recordEnd);
        }
        catch (XunitException)
        {
            return false; // the log broke a rule reading back; the end's own rule is the one to name
        }
    }
}
