using System.Diagnostics;
using Xunit;

namespace EventFilter.Testing;

/// <summary>
/// Waits for a condition that background work or another process (a hosted filter's catch-up, a daemon's own timer, a
/// connection slot freed, a child process's phase) brings about: checks it every few milliseconds and fails, naming it,
/// after <see cref="Bound"/>. The one place tests wait on a condition: no test writes its own deadline loop.
/// </summary>
public static class Poll
{
    private static readonly TimeSpan Every = TimeSpan.FromMilliseconds(5);

    /// <summary>
    /// How long a wait lasts before it is called a hang. Far beyond any wait a loaded 2-core machine needs, so it only
    /// ever turns a hang into a failure and never decides a pass; also the timeout of single waits (a process's exit, an
    /// HTTP request) that are not polled.
    /// </summary>
    public static TimeSpan Bound { get; } = TimeSpan.FromMinutes(2);

    public static void Until(Func<bool> condition, string what) => Until(() => condition() ? "done" : null, () => what);

    /// <summary>As <see cref="Until(Func{bool}, string)"/>, describing what was awaited only on failure (with the state then).</summary>
    public static void Until(Func<bool> condition, Func<string> what) => Until(() => condition() ? "done" : null, what);

    /// <summary>The first non-null result of <paramref name="attempt"/>.</summary>
    public static T Until<T>(Func<T?> attempt, string what)
        where T : class => Until(attempt, () => what);

    private static T Until<T>(Func<T?> attempt, Func<string> what)
        where T : class
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (attempt() is { } done)
            {
                return done;
            }

            Assert.True(clock.Elapsed < Bound, $"timed out waiting for {what()}");
            Thread.Sleep(Every);
        }
    }

    /// <inheritdoc cref="Until(Func{bool}, string)"/>
    public static Task UntilAsync(Func<bool> condition, string what) => UntilAsync(() => Task.FromResult(condition()), () => what);

    /// <inheritdoc cref="Until(Func{bool}, string)"/>
    public static Task UntilAsync(Func<Task<bool>> condition, string what) => UntilAsync(condition, () => what);

    /// <inheritdoc cref="Until(Func{bool}, Func{string})"/>
    public static Task UntilAsync(Func<bool> condition, Func<string> what, TimeSpan? every = null) =>
        UntilAsync(() => Task.FromResult(condition()), what, every);

    /// <summary>
    /// As <see cref="Until(Func{bool}, Func{string})"/>, checking every <paramref name="every"/> (5 ms unless given: a
    /// kill meant to land inside a short phase of another process checks more often).
    /// </summary>
    public static async Task UntilAsync(Func<Task<bool>> condition, Func<string> what, TimeSpan? every = null)
    {
        for (var clock = Stopwatch.StartNew(); !await condition().ConfigureAwait(false); await Task.Delay(every ?? Every).ConfigureAwait(false))
        {
            Assert.True(clock.Elapsed < Bound, $"timed out waiting for {what()}");
        }
    }
}
