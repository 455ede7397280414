using EventLog.Streams;

namespace EventLog.Writing;

/// <summary>
/// An append waiting in the writer's queue: validated input, then the outcome the writer decides (numbers and
/// positions, or the failure). Its task completes only after the group commit that carried it was fsynced.
/// </summary>
internal sealed class PendingAppend
{
    private readonly TaskCompletionSource<AppendResult> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public PendingAppend(string streamName, byte[] utf8Name, ExpectedVersion expected, EncodedEvent[] events, CancellationToken cancellationToken)
    {
        StreamName = streamName;
        Utf8Name = utf8Name;
        Hash = Index.StreamHash.Of(utf8Name);
        Expected = expected;
        Events = events;
        CancellationToken = cancellationToken;
        RecordBytes = events.Sum(e => e.RecordLength(utf8Name.Length));
        Positions = new long[events.Length];
    }

    public string StreamName { get; }

    public byte[] Utf8Name { get; }

    public ulong Hash { get; }

    public ExpectedVersion Expected { get; }

    public EncodedEvent[] Events { get; }

    public CancellationToken CancellationToken { get; }

    /// <summary>Bytes of all its records: they go into one segment.</summary>
    public long RecordBytes { get; }

    /// <summary>Set by the writer: the log position of each record.</summary>
    public long[] Positions { get; }

    /// <summary>Set by the writer: the number of the first event, when written.</summary>
    public long FirstEventNumber { get; set; }

    /// <summary>Set by the writer once the records are in the commit's buffer: from then on a failed commit may have written them.</summary>
    public bool Encoded { get; set; }

    /// <summary>Set by the writer: why the append was not written (a version conflict); null when written.</summary>
    public Exception? Rejection { get; set; }

    public long LastEventNumber => FirstEventNumber + Events.Length - 1;

    public Task<AppendResult> Completion => _completion.Task;

    /// <summary>Completes the caller's task once the commit is durable.</summary>
    public void Complete(long commitPosition)
    {
        if (Rejection is { } rejection)
        {
            _completion.TrySetException(rejection);
        }
        else
        {
            _completion.TrySetResult(new AppendResult(FirstEventNumber, LastEventNumber, Positions[0], commitPosition));
        }
    }

    public void Cancel() => _completion.TrySetCanceled(CancellationToken);

    public void Fail(Exception error) => _completion.TrySetException(error);
}
