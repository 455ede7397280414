using System.Diagnostics;
using EventFilter.DaemonBench.Client;

namespace EventFilter.DaemonBench.Rows;

/// <summary>Per-operation times of one row on one server, across its repeats; preallocated so recording allocates nothing.</summary>
internal sealed class Samples(int capacity)
{
    private readonly long[] _ticks = new long[capacity];
    private int _count;

    public void Add(long ticks)
    {
        if (_count < _ticks.Length)
        {
            _ticks[_count++] = ticks;
        }
    }

    public void CopyTo(Samples pooled)
    {
        foreach (long ticks in _ticks.AsSpan(0, _count))
        {
            pooled.Add(ticks);
        }
    }

    public Distribution Distribution() => Client.Distribution.FromTicks(_ticks.AsSpan(0, _count));

    /// <summary>Sends each command and waits for its reply, one round trip at a time; returns the wall time of the whole loop.</summary>
    public TimeSpan TimeEach(RespConnection connection, byte[][] commands)
    {
        // Collected now so that no collection of the setup's garbage lands inside the loop, which allocates nothing.
        GC.Collect();
        long begin = Stopwatch.GetTimestamp();
        foreach (byte[] command in commands)
        {
            long sent = Stopwatch.GetTimestamp();
            connection.Call(command);
            Add(Stopwatch.GetTimestamp() - sent);
        }

        return Stopwatch.GetElapsedTime(begin);
    }

    /// <summary>Runs one operation made of several round trips (a create, info, drop cycle) and records its time.</summary>
    public void TimeOperation(RespConnection connection, byte[][] operation)
    {
        long started = Stopwatch.GetTimestamp();
        foreach (byte[] command in operation)
        {
            connection.Call(command);
        }

        Add(Stopwatch.GetTimestamp() - started);
    }
}
