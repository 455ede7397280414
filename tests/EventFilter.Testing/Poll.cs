using System.Diagnostics;
using Xunit;

namespace EventFilter.Testing;

/// <summary>
/// Waits for a condition that background work or another process (a hosted filter's catch-up, a daemon's own timer, a
/// connection slot freed) brings about: checks it every few milliseconds and fails, naming it, after a bound that only
/// turns a hang into a failure. It is far beyond any wait a loaded machine needs, so the timing never decides a pass.
/// </summary>
public static class Poll
{
    private static readonly TimeSpan Bound = TimeSpan.FromMinutes(2);

    public static void Until(Func<bool> condition, string what) => Until(() => condition() ? "done" : null, what);

    /// <summary>The first non-null result of <paramref name="attempt"/>.</summary>
    public static T Until<T>(Func<T?> attempt, string what)
        where T : class
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (attempt() is { } done)
            {
                return done;
            }

            Assert.True(clock.Elapsed < Bound, $"timed out waiting for {what}");
            Thread.Sleep(5);
        }
    }

    /// <inheritdoc cref="Until(Func{bool}, string)"/>
    public static Task UntilAsync(Func<bool> condition, string what) => UntilAsync(() => Task.FromResult(condition()), what);

    /// <inheritdoc cref="Until(Func{bool}, string)"/>
    public static async Task UntilAsync(Func<Task<bool>> condition, string what)
    {
        for (var clock = Stopwatch.StartNew(); !await condition().ConfigureAwait(false); await Task.Delay(5).ConfigureAwait(false))
        {
            Assert.True(clock.Elapsed < Bound, $"timed out waiting for {what}");
        }
    }
}
