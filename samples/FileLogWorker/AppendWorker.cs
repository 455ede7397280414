using System.Threading.Channels;
using EventFilter;

namespace FileLogWorker;

/// <summary>
/// The one writer: takes appends, writes each record and adds its stream to the filter with the record's end, then
/// makes the whole batch durable with one flush (a group commit) and acknowledges it.
/// </summary>
public sealed class AppendWorker(FileStreamLog log, IStreamExistenceFilter filter) : BackgroundService
{
    private readonly Channel<(string Stream, TaskCompletionSource Done)> _appends = Channel.CreateUnbounded<(string, TaskCompletionSource)>();

    /// <summary>Appends a record to <paramref name="stream"/>; completes once it is durable.</summary>
    public Task AppendAsync(string stream)
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        return _appends.Writer.TryWrite((stream, done)) ? done.Task : Task.FromException(new InvalidOperationException("The log is stopping."));
    }

    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        _appends.Writer.TryComplete(); // take no more, write what was taken
        await base.StopAsync(cancellationToken);

        // A stop that came before ExecuteAsync started leaves it never run (.NET starts it on the thread pool): what it
        // would have written is refused, never left waiting for ever.
        while (_appends.Reader.TryRead(out var append))
        {
            append.Done.TrySetException(new InvalidOperationException("The log stopped before this append was written."));
        }
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var batch = new List<(string Stream, TaskCompletionSource Done)>();
        while (await _appends.Reader.WaitToReadAsync(CancellationToken.None))
        {
            try
            {
                while (_appends.Reader.TryRead(out var append))
                {
                    batch.Add(append);
                    filter.Add(append.Stream, log.Append(append.Stream)); // before the flush, with the record's end
                }

                log.Flush();
                batch.ForEach(append => append.Done.SetResult());
            }
            catch (IOException error)
            {
                batch.ForEach(append => append.Done.TrySetException(error));
            }

            batch.Clear();
        }
    }
}
