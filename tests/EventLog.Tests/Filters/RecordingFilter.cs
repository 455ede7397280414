using System.Collections.Concurrent;
using System.Text;
using EventFilter;

namespace EventLog.Tests.Filters;

/// <summary>A filter that records what the engine tells it, to check the host contract's calls.</summary>
internal sealed class RecordingFilter : IStreamExistenceFilter
{
    public ConcurrentBag<string> Added { get; } = [];

    public ConcurrentQueue<long> Checkpoints { get; } = new();

    public ConcurrentQueue<long> Truncations { get; } = new();

    /// <summary>When set, read at every add: what a resizing filter would read as the log's appended end then.</summary>
    public Func<long>? AppendedEnd { get; set; }

    /// <summary>Each name's appended end as read when it was added.</summary>
    public ConcurrentDictionary<string, long> AppendedEndAtAdd { get; } = new();

    public FilterState State => FilterState.Ready;

    public bool IsReady => true;

    public Task WhenReady => Task.CompletedTask;

    public long? CheckpointPosition => Checkpoints.LastOrDefault();

    public bool MightExist(ReadOnlySpan<char> streamName) => Added.Contains(streamName.ToString());

    public bool MightExist(ReadOnlySpan<byte> utf8StreamName) => Added.Contains(Encoding.UTF8.GetString(utf8StreamName));

    public void Add(ReadOnlySpan<char> streamName) => Record(streamName.ToString());

    public void Add(ReadOnlySpan<byte> utf8StreamName) => Record(Encoding.UTF8.GetString(utf8StreamName));

    private void Record(string name)
    {
        if (AppendedEnd is { } appendedEnd)
        {
            AppendedEndAtAdd[name] = appendedEnd();
        }

        Added.Add(name);
    }

    public void Checkpoint(long position) => Checkpoints.Enqueue(position);

    public void TruncateTo(long position) => Truncations.Enqueue(position);
}
