using System.Runtime.ExceptionServices;

namespace EventFilter.Threading;

/// <summary>
/// A fixed number of threads that run one step of work together and return when all have finished it: the calling
/// thread is participant 0, dedicated threads the others. Dedicated rather than pool threads, because the steps are
/// seconds of memory-bound work on every core, which a host's pool (its request threads) must not wait behind, and a
/// starved pool must not delay. A step's delegate is made once by its owner, so a step allocates nothing.
/// </summary>
internal sealed class WorkerGang : IDisposable
{
    private readonly Thread[] _threads;
    private readonly Barrier _barrier;
    private Action<int>? _step;
    private bool _stopping;
    private Exception? _failure;

    public WorkerGang(int participants, string name)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(participants);
        Participants = participants;
        _barrier = new Barrier(participants);
        _threads = new Thread[participants - 1];
        for (int i = 0; i < _threads.Length; i++)
        {
            int index = i + 1;
            _threads[i] = new Thread(() => Serve(index)) { IsBackground = true, Name = $"{name} {index}" };
            _threads[i].Start();
        }
    }

    public int Participants { get; }

    /// <summary>Runs <paramref name="step"/>(0 .. Participants - 1), each on its own thread, and returns when all have; rethrows the first failure.</summary>
    public void Run(Action<int> step)
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _stopping), this);
        _step = step;
        _barrier.SignalAndWait(); // the barrier's fences publish _step and what the caller wrote before
        Execute(0);
        _barrier.SignalAndWait(); // and every participant's writes to the caller
        _step = null;
        if (Interlocked.Exchange(ref _failure, null) is { } failure)
        {
            ExceptionDispatchInfo.Throw(failure);
        }
    }

    public void Dispose()
    {
        if (Volatile.Read(ref _stopping))
        {
            return;
        }

        Volatile.Write(ref _stopping, true);
        _barrier.SignalAndWait();
        foreach (Thread thread in _threads)
        {
            thread.Join();
        }

        _barrier.Dispose();
    }

    private void Serve(int index)
    {
        while (true)
        {
            _barrier.SignalAndWait();
            if (Volatile.Read(ref _stopping))
            {
                return;
            }

            Execute(index);
            _barrier.SignalAndWait();
        }
    }

    // A failing participant still reaches the barrier, so the others never wait for it for ever.
    private void Execute(int index)
    {
        try
        {
            _step!(index);
        }
        catch (Exception e)
        {
            Interlocked.CompareExchange(ref _failure, e, null);
        }
    }
}
