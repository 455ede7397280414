using System.Globalization;
using System.Text;
using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// CONFIG GET pattern [pattern ...], as Redis 7 answers it: the parameters whose names match any pattern (Redis's glob,
/// any case; a pattern without one answers under the name as sent), each once, as a map (a flat array in RESP2). Only parameters whose value says something true of this
/// daemon are reported; any other name matches nothing. CONFIG SET and the rest are unknown subcommands.
/// </summary>
internal static class ConfigCommand
{
    public static void Get(CommandContext context)
    {
        DaemonOptions options = context.Options;
        (string Name, string Value)[] parameters =
        [
            ("databases", "1"),
            ("maxclients", Number(options.MaxClients)),
            ("port", Number(options.Port ?? 0)),
            ("bind", options.BindAddress.ToString()),
            ("unixsocket", Path.GetFullPath(options.SocketPathOrDefault)),
            ("unixsocketperm", Convert.ToString((int)options.SocketMode, 8)),
            ("dir", Path.GetFullPath(options.DataDirectory)),
            ("maxmemory", "0"),
            ("maxmemory-policy", "noeviction"),
            ("timeout", "0"),
            ("proto-max-bulk-len", Number(new RespLimits().MaxBulkLength)),

            // No snapshots; every acknowledged add is in an append-only log, fsynced as --log-sync says. redis-benchmark
            // asks for save and appendonly at its start and warns when they are not answered.
            ("save", ""),
            ("appendonly", "yes"),
            ("appendfsync", options.LogSync == LogSync.Always ? "always" : "everysec"),
        ];

        var matched = new List<(string Name, string Value)>();
        for (int i = 2; i < context.Arguments.Count; i++)
        {
            string pattern = Encoding.ASCII.GetString(context.Arguments[i]);
            if (pattern.AsSpan().IndexOfAny("[*?") < 0)
            {
                // As Redis: a plain name is looked up in any case, and answered under the name as it was sent.
                matched.AddRange(parameters.Where(p => p.Name.Equals(pattern, StringComparison.OrdinalIgnoreCase) && !matched.Any(m => m.Name == pattern)).Select(p => (pattern, p.Value)));
                continue;
            }

            byte[] glob = Encoding.ASCII.GetBytes(pattern.ToLowerInvariant());
            matched.AddRange(parameters.Where(p => !matched.Contains(p) && KeyGlob.Matches(glob, Encoding.ASCII.GetBytes(p.Name))));
        }

        context.Reply.MapHeader(matched.Count);
        foreach ((string name, string value) in matched)
        {
            context.Reply.Bulk(name);
            context.Reply.Bulk(value);
        }
    }

    private static string Number(long value) => value.ToString(CultureInfo.InvariantCulture);
}
