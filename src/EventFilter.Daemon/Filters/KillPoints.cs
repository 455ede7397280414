using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Named steps of the daemon's durability and recovery (a tick's switch, each filter a tick or start materializes, the
/// fsyncs, the emptying of a control file, ...), where a crash test can have the process SIGKILL itself at an exact
/// instruction rather than at a time: with <c>EVENTFILTERD_KILL_AT=point:n</c> in its environment the daemon kills itself
/// the n-th time it reaches <c>point</c>. Without it (always, outside tests) each point is one test of a static field.
/// The points are listed in docs/daemon-design.md, "Control-log recovery".
/// </summary>
internal static class KillPoints
{
    public const string Variable = "EVENTFILTERD_KILL_AT";
    private static readonly string? s_point;
    private static int s_remaining;

    static KillPoints()
    {
        string? setting = Environment.GetEnvironmentVariable(Variable);
        int colon = setting?.LastIndexOf(':') ?? -1;
        if (colon > 0 && int.TryParse(setting.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out int count) && count > 0)
        {
            s_point = setting![..colon];
            s_remaining = count;
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Reached(string point)
    {
        if (s_point is not null)
        {
            Count(point);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Count(string point)
    {
        if (point == s_point && Interlocked.Decrement(ref s_remaining) == 0)
        {
            Console.Error.WriteLine($"eventfilterd: killed at {point}");
            Console.Error.Flush();
            using Process self = Process.GetCurrentProcess();
            self.Kill(); // SIGKILL: no handler, no flush, no stop
        }
    }
}
