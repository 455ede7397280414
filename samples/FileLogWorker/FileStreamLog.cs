using System.Buffers.Binary;
using System.Text;
using EventFilter;
using Microsoft.Win32.SafeHandles;

namespace FileLogWorker;

/// <summary>
/// The log: one append-only file of records [4-byte length][UTF-8 stream name]; a record's position is its byte
/// offset. One writer appends and flushes; the filter's catch-up reads what is durable.
/// </summary>
public sealed class FileStreamLog : IStreamNameLog, IDisposable
{
    private readonly SafeFileHandle _file;
    private long _written;
    private long _durable;

    public FileStreamLog(string path)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        _file = File.OpenHandle(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read);
        _written = _durable = WholeRecordsEnd(); // a crash may have left half a record: cut it
        RandomAccess.SetLength(_file, _durable);
    }

    /// <summary>Just past the last durable record.</summary>
    public long EndPosition => Volatile.Read(ref _durable);

    /// <summary>Writes a record, not yet durable, and returns the position just past it: the end the filter is given.</summary>
    public long Append(string stream)
    {
        byte[] record = new byte[4 + Encoding.UTF8.GetByteCount(stream)];
        BinaryPrimitives.WriteInt32LittleEndian(record, record.Length - 4);
        Encoding.UTF8.GetBytes(stream, record.AsSpan(4));
        RandomAccess.Write(_file, record, _written);
        return _written += record.Length;
    }

    /// <summary>Makes every record written so far durable.</summary>
    public void Flush()
    {
        RandomAccess.FlushToDisk(_file);
        Volatile.Write(ref _durable, _written);
    }

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        long position = fromPosition, end = EndPosition;
        Span<byte> length = stackalloc byte[4];
        while (position < end && !batch.IsFull)
        {
            RandomAccess.Read(_file, length, position);
            byte[] name = new byte[BinaryPrimitives.ReadInt32LittleEndian(length)];
            RandomAccess.Read(_file, name, position + 4);
            if (!batch.TryAdd(name))
            {
                break;
            }

            position += 4 + name.Length;
        }

        batch.NextPosition = position;
        return ValueTask.CompletedTask;
    }

    public void Dispose() => _file.Dispose();

    private long WholeRecordsEnd()
    {
        long position = 0, length = RandomAccess.GetLength(_file);
        Span<byte> header = stackalloc byte[4];
        while (position + 4 <= length && RandomAccess.Read(_file, header, position) == 4)
        {
            long next = position + 4 + BinaryPrimitives.ReadInt32LittleEndian(header);
            if (next > length)
            {
                break;
            }

            position = next;
        }

        return position;
    }
}
