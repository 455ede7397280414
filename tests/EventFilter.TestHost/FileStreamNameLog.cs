using System.Buffers.Binary;

namespace EventFilter.TestHost;

/// <summary>
/// A minimal durable log for crash tests: records of [u16 length][UTF-8 name], position = byte offset.
/// <see cref="Sync"/> fsyncs and advances the durable end. On open, a torn last record (a crash mid-append) is cut off.
/// </summary>
public sealed class FileStreamNameLog : IStreamNameLog, IDisposable
{
    private readonly FileStream _file;
    private long _durableEnd;

    public FileStreamNameLog(string path)
    {
        _file = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite, bufferSize: 1 << 16);
        _durableEnd = ValidLength();
        _file.SetLength(_durableEnd);
        _file.Position = _durableEnd;
    }

    public long EndPosition => Volatile.Read(ref _durableEnd);

    /// <summary>A pause per read, to stretch a catch-up so that a crash test can kill it halfway.</summary>
    public TimeSpan ReadDelay { get; init; }

    /// <summary>Appends a record (not yet durable) and returns the position after it.</summary>
    public long Append(ReadOnlySpan<byte> name)
    {
        Span<byte> length = stackalloc byte[2];
        BinaryPrimitives.WriteUInt16LittleEndian(length, (ushort)name.Length);
        _file.Write(length);
        _file.Write(name);
        return _file.Position;
    }

    /// <summary>Makes every append durable and returns the new durable end.</summary>
    public long Sync()
    {
        _file.Flush(flushToDisk: true);
        Volatile.Write(ref _durableEnd, _file.Position);
        return _durableEnd;
    }

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        if (ReadDelay > TimeSpan.Zero)
        {
            Thread.Sleep(ReadDelay);
        }

        Read(fromPosition, batch);
        return ValueTask.CompletedTask;
    }

    private void Read(long fromPosition, StreamNameBatch batch)
    {
        using var reader = new FileStream(_file.Name, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, bufferSize: 1 << 16);
        reader.Position = fromPosition;
        long position = fromPosition, end = EndPosition;
        Span<byte> name = stackalloc byte[ushort.MaxValue];
        Span<byte> length = stackalloc byte[2];
        while (position + 2 <= end)
        {
            reader.ReadExactly(length);
            int size = BinaryPrimitives.ReadUInt16LittleEndian(length);
            if (position + 2 + size > end)
            {
                break;
            }

            reader.ReadExactly(name[..size]);
            if (!batch.TryAdd(name[..size]))
            {
                break;
            }

            position += 2 + size;
        }

        batch.NextPosition = position;
    }

    /// <summary>All names in the durable log, for checking a filter against it.</summary>
    /// <summary>
    /// Appends 50 new crash-test names, handing each with its record's end to <paramref name="add"/> before the
    /// fsync, as a group commit adds to its filter; returns the new count.
    /// </summary>
    public long AppendBatch(long written, Random random, Action<byte[], long> add)
    {
        for (int i = 0; i < 50; i++, written++)
        {
            byte[] name = System.Text.Encoding.UTF8.GetBytes($"crash-stream-{written}-{random.Next()}");
            add(name, Append(name));
        }

        return written;
    }

    public List<string> ReadAllNames()
    {
        var names = new List<string>();
        var batch = new StreamNameBatch();
        long position = 0;
        while (position < EndPosition)
        {
            batch.Clear();
            Read(position, batch);
            int offset = 0;
            foreach (int size in batch.Lengths)
            {
                names.Add(System.Text.Encoding.UTF8.GetString(batch.Names.Slice(offset, size)));
                offset += size;
            }

            position = batch.NextPosition;
        }

        return names;
    }

    public void Dispose() => _file.Dispose();

    private long ValidLength()
    {
        long position = 0, length = _file.Length;
        Span<byte> size = stackalloc byte[2];
        _file.Position = 0;
        while (position + 2 <= length)
        {
            _file.ReadExactly(size);
            long next = position + 2 + BinaryPrimitives.ReadUInt16LittleEndian(size);
            if (next > length)
            {
                break;
            }

            _file.Position = position = next;
        }

        return position;
    }
}
