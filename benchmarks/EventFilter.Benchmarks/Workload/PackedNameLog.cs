
namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// A host log held in memory: UTF-8 names packed back to back, record i at position i. Reads copy names into the
/// catch-up's batch as a real log reader would, so the benchmark pays for the copy as well as for the adds.
/// </summary>
public sealed class PackedNameLog : IStreamNameLog
{
    private readonly byte[] _names;
    private readonly int[] _offsets;

    public PackedNameLog(IReadOnlyList<byte[]> names)
    {
        _offsets = new int[names.Count + 1];
        for (int i = 0; i < names.Count; i++)
        {
            _offsets[i + 1] = _offsets[i] + names[i].Length;
        }

        _names = new byte[_offsets[^1]];
        for (int i = 0; i < names.Count; i++)
        {
            names[i].CopyTo(_names, _offsets[i]);
        }
    }

    public long EndPosition => _offsets.Length - 1;

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        long position = fromPosition;
        while (position < EndPosition && batch.TryAdd(_names.AsSpan(_offsets[position], _offsets[position + 1] - _offsets[position])))
        {
            position++;
        }

        batch.NextPosition = position;
        return ValueTask.CompletedTask;
    }
}
