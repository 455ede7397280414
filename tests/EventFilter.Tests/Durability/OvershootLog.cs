using System.Text;

namespace EventFilter.Tests.Durability;

/// <summary>
/// The log of the read-past-the-end report: record i is "stream-i", ending at 10 * (i + 1). Its first read hands over
/// 100 names and claims NextPosition = EndPosition + 5; every later read is correct. <see cref="Grow"/> appends.
/// </summary>
internal sealed class OvershootLog(long records) : IStreamNameLog
{
    private long _count = records;
    private int _reads;

    public long EndPosition => Volatile.Read(ref _count) * 10;

    public int Reads => Volatile.Read(ref _reads);

    public static string Name(long i) => $"stream-{i}";

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        bool first = Interlocked.Increment(ref _reads) == 1;
        long i = (fromPosition + 9) / 10, end = Volatile.Read(ref _count), n = 0;
        while (i < end && (!first || n < 100) && batch.TryAdd(Encoding.UTF8.GetBytes(Name(i))))
        {
            i++;
            n++;
        }

        batch.NextPosition = first ? EndPosition + 5 : n == 0 ? fromPosition : i * 10;
        return ValueTask.CompletedTask;
    }

    public void Grow(int records) => Interlocked.Add(ref _count, records);
}
