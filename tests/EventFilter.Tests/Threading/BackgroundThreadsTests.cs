using System.Runtime.InteropServices;
using EventFilter.Threading;

namespace EventFilter.Tests.Threading;

public sealed partial class BackgroundThreadsTests
{
    private const int SchedOther = 0, SchedBatch = 3, ResetOnFork = 0x40000000;

    [Fact]
    public async Task Work_runs_on_a_thread_of_the_batch_class_and_the_caller_keeps_its_own()
    {
        int policy = -1, childPolicy = -1;
        string? name = null;

        await BackgroundThreads.Run("test background", () =>
        {
            policy = GetScheduler(0);
            name = Thread.CurrentThread.Name;
            var child = new Thread(() => childPolicy = GetScheduler(0));
            child.Start();
            child.Join();
        });

        Assert.Equal(SchedBatch | ResetOnFork, policy);
        Assert.Equal(SchedOther, childPolicy); // a thread it creates is a normal one
        Assert.Equal("test background", name);
        Assert.Equal(SchedOther, GetScheduler(0));
    }

    [Fact]
    public async Task A_failure_of_the_work_fails_the_task()
    {
        var failure = new IOException("disk gone");

        Task run = BackgroundThreads.Run("test background", () => throw failure);

        Assert.Same(failure, await Assert.ThrowsAsync<IOException>(() => run));
    }

    [LibraryImport("libc", EntryPoint = "sched_getscheduler")]
    private static partial int GetScheduler(int pid);
}
