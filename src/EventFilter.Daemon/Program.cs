using EventFilter.Daemon;
using EventFilter.Daemon.Filters;

// eventfilterd: named Bloom filters over a Unix socket in RESP2 with RedisBloom's BF.* commands. See docs/daemon.md.
// First, with only the runtime's own assemblies loaded: under a tiny descriptor limit loading the next one fails with
// the runtime's stack trace (it holds 2 descriptors per assembly), so the limit is checked before anything else.
if (StartCheck.RuntimeRefusal() is { } refusal)
{
    Console.Error.WriteLine($"eventfilterd: cannot start: {refusal} Nothing was changed.");
    return 5;
}

return await DaemonMain.RunAsync(args);
