using Microsoft.Extensions.Time.Testing;

namespace EventFilter.Testing;

/// <summary>
/// <see cref="FakeTimeProvider"/> (Microsoft.Extensions.TimeProvider.Testing), counting the timer callbacks each
/// <see cref="Advance"/> fires: a test can then show that nothing was due, by the clock, instead of waiting to see
/// nothing happen. Everything else is the fake's own.
/// </summary>
public sealed class TimerCountingTime : TimeProvider
{
    private readonly FakeTimeProvider _fake = new(new DateTimeOffset(2025, 1, 1, 0, 0, 0, TimeSpan.Zero));
    private int _fired;

    public override DateTimeOffset GetUtcNow() => _fake.GetUtcNow();

    public override long GetTimestamp() => _fake.GetTimestamp();

    public override long TimestampFrequency => _fake.TimestampFrequency;

    public override TimeZoneInfo LocalTimeZone => _fake.LocalTimeZone;

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period) =>
        _fake.CreateTimer(s => { Interlocked.Increment(ref _fired); callback(s); }, state, dueTime, period);

    /// <summary>Moves the clock on, firing the timers that fall due; returns how many callbacks fired.</summary>
    public int Advance(TimeSpan by)
    {
        int before = Volatile.Read(ref _fired);
        _fake.Advance(by);
        return Volatile.Read(ref _fired) - before;
    }
}
