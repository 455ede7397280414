using EventFilter.Threading;

namespace EventFilter.Tests.Threading;

public sealed class WorkerGangTests
{
    [Fact]
    public void Every_participant_runs_each_step_once_and_the_caller_sees_their_writes()
    {
        using var gang = new WorkerGang(3, "test gang");
        int[] runs = new int[3];
        for (int step = 0; step < 100; step++)
        {
            gang.Run(i => runs[i]++); // plain writes: Run's barrier must publish them
        }

        Assert.Equal([100, 100, 100], runs);
    }

    [Fact]
    public void A_failing_participant_is_rethrown_and_the_gang_stays_usable()
    {
        using var gang = new WorkerGang(2, "test gang");
        var failure = Assert.Throws<InvalidOperationException>(() => gang.Run(i =>
        {
            if (i == 1)
            {
                throw new InvalidOperationException("step failed");
            }
        }));
        Assert.Equal("step failed", failure.Message);

        int ran = 0;
        gang.Run(_ => Interlocked.Increment(ref ran));
        Assert.Equal(2, ran);
    }
}
