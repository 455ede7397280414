using Microsoft.Extensions.Time.Testing;

namespace EventFilter.Testing;

/// <summary>
/// A <see cref="FakeTimeProvider"/> that tells when code starts waiting on it (creates a timer): a test awaits
/// <see cref="NextWaitAsync"/>, so it moves the clock only once the code under test is parked on it, never before.
/// </summary>
public sealed class SteppedTime : TimeProvider
{
    private readonly FakeTimeProvider _fake = new(new DateTimeOffset(2025, 1, 1, 0, 0, 0, TimeSpan.Zero));
    private readonly SemaphoreSlim _waits = new(0);

    public override DateTimeOffset GetUtcNow() => _fake.GetUtcNow();

    public override long GetTimestamp() => _fake.GetTimestamp();

    public override long TimestampFrequency => _fake.TimestampFrequency;

    public override TimeZoneInfo LocalTimeZone => _fake.LocalTimeZone;

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        ITimer timer = _fake.CreateTimer(callback, state, dueTime, period);
        _waits.Release();
        return timer;
    }

    /// <summary>Completes when the next timer is created (or at once for one created since the last call).</summary>
    public Task NextWaitAsync() => _waits.WaitAsync(TimeSpan.FromMinutes(2)).ContinueWith(
        waited => Xunit.Assert.True(waited.Result, "timed out waiting for the code under test to wait on the clock"), TaskScheduler.Default);

    /// <summary>Moves the clock on, firing the timers that fall due.</summary>
    public void Advance(TimeSpan by) => _fake.Advance(by);
}
