using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// A new filter or restore refused at the descriptor limit (<see cref="Filters.DescriptorBudget"/>) is back-pressure the
/// operator should hear of, not a storage failure: it is logged as a warning at most once per
/// <see cref="Interval"/>, with how many refusals there were since, and neither counted as an error nor degrading
/// health. See docs/daemon.md, "Starting and stopping". One per daemon: the listener's, on the daemon's clock, which
/// every connection's <see cref="CommandContext"/> shares.
/// </summary>
internal sealed class DescriptorLimitWarning(TimeProvider time)
{
    public static readonly TimeSpan Interval = TimeSpan.FromMinutes(1);

    private readonly Lock _gate = new();
    private long _refusals;
    private long? _warnedAt;

    /// <summary>Counts a refusal, and logs it unless a warning was logged less than <see cref="Interval"/> ago.</summary>
    public void Refused(ILogger logger, string reason)
    {
        long refusals;
        lock (_gate)
        {
            _refusals++;
            if (_warnedAt is { } warned && time.GetElapsedTime(warned) < Interval)
            {
                return;
            }

            (refusals, _refusals, _warnedAt) = (_refusals, 0, time.GetTimestamp());
        }

        Log.DescriptorLimitRefused(logger, refusals, reason);
    }
}
