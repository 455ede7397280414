using System.Diagnostics;
using Xunit;

namespace EventFilter.Testing;

/// <summary>
/// Waits for a condition that another process (a daemon's own timer, a connection slot freed) brings about: checks it
/// every few milliseconds and fails, naming it, after a generous bound. The timing is never what is asserted.
/// </summary>
public static class Poll
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

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
}
