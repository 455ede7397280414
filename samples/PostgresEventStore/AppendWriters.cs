using System.Threading.Channels;

namespace PostgresEventStore;

/// <summary>
/// Several writers, each taking what appends are waiting (up to <see cref="MaxGroup"/>) and committing them as one
/// <see cref="GroupCommit"/> on its own connection. Their transactions overlap, so positions commit out of order:
/// that is what a database log is, and what <see cref="HighWaterMark"/> is for. An append is acknowledged at its commit.
/// </summary>
public sealed class AppendWriters(GroupCommit commit, int writers = 4) : BackgroundService
{
    /// <summary>The most appends one transaction takes.</summary>
    public const int MaxGroup = 256;

    private readonly Channel<(Append Append, TaskCompletionSource<AppendResult> Done)> _appends =
        Channel.CreateUnbounded<(Append, TaskCompletionSource<AppendResult>)>();

    /// <summary>Appends <paramref name="append"/>; completes once committed, or refused for its expected version.</summary>
    public Task<AppendResult> AppendAsync(Append append)
    {
        var done = new TaskCompletionSource<AppendResult>(TaskCreationOptions.RunContinuationsAsynchronously);
        return _appends.Writer.TryWrite((append, done)) ? done.Task : Task.FromException<AppendResult>(new InvalidOperationException("The event store is stopping."));
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        _appends.Writer.TryComplete(); // take no more, commit what was taken
        await base.StopAsync(cancellationToken);

        // A stop that came before ExecuteAsync started leaves it never run (.NET starts it on the thread pool): what the
        // writers would have committed is refused, never left waiting for ever.
        while (_appends.Reader.TryRead(out var append))
        {
            append.Done.TrySetException(new InvalidOperationException("The event store stopped before this append was committed."));
        }
    }

    protected override Task ExecuteAsync(CancellationToken stoppingToken) =>
        Task.WhenAll(Enumerable.Range(0, writers).Select(_ => Task.Run(WriteAsync, CancellationToken.None)));

    private async Task WriteAsync()
    {
        var group = new List<(Append Append, TaskCompletionSource<AppendResult> Done)>();
        while (await _appends.Reader.WaitToReadAsync(CancellationToken.None))
        {
            while (group.Count < MaxGroup && _appends.Reader.TryRead(out var append))
            {
                group.Add(append);
            }

            try
            {
                AppendResult[] results = await commit.CommitAsync([.. group.Select(g => g.Append)], CancellationToken.None);
                for (int i = 0; i < group.Count; i++)
                {
                    group[i].Done.SetResult(results[i]);
                }
            }
            catch (Exception error)
            {
                // The database refused the group (not an expected-version failure, which is a result): each append hears why.
                group.ForEach(g => g.Done.TrySetException(error));
            }

            group.Clear();
        }
    }
}
