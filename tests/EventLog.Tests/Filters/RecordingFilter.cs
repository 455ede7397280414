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

    /// <summary>Each name's record end as given with its last add.</summary>
    public ConcurrentDictionary<string, long> RecordEnds { get; } = new();

    public FilterState State => FilterState.Ready;

    public bool IsReady => true;

    public Task WhenReady => Task.CompletedTask;

    public long? CheckpointPosition => Checkpoints.LastOrDefault();

    public bool MightExist(ReadOnlySpan<char> streamName) => Added.Contains(streamName.ToString());

    public bool MightExist(ReadOnlySpan<byte> utf8StreamName) => Added.Contains(Encoding.UTF8.GetString(utf8StreamName));

    public void MightExist(ReadOnlySpan<string> streamNames, Span<bool> results)
    {
        for (int i = 0; i < streamNames.Length; i++)
        {
            results[i] = Added.Contains(streamNames[i]);
        }
    }

    public void Add(ReadOnlySpan<char> streamName, long recordEnd) => Record(streamName.ToString(), recordEnd);

    public void Add(ReadOnlySpan<byte> utf8StreamName, long recordEnd) => Record(Encoding.UTF8.GetString(utf8StreamName), recordEnd);

    private void Record(string name, long recordEnd)
    {
        RecordEnds[name] = recordEnd;
        Added.Add(name);
    }

    public void Checkpoint(long position) => Checkpoints.Enqueue(position);

    public void TruncateTo(long position) => Truncations.Enqueue(position);
}
