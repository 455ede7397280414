using Microsoft.Win32.SafeHandles;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// With --log-sync periodic, the record of the creates and drops made since the last sync tick: one small write per
/// BF.RESERVE or DEL, where the filter's directory and files would cost inode allocations on the request path. The
/// tick applies the records to <c>filters/</c> durably, then resets the log (<see cref="Reset"/>); a start replays
/// what a crash left in it. The bytes are <see cref="ControlLogFormat"/>'s. See docs/daemon.md, "Durability".
/// </summary>
internal sealed class ControlLog : IDisposable
{
    private readonly SafeFileHandle _handle;
    private uint _epoch;

    private ControlLog(SafeFileHandle handle, uint epoch, long end)
    {
        _handle = handle;
        _epoch = epoch;
        EndPosition = end;
    }

    /// <summary>The end of the last record written.</summary>
    public long EndPosition { get; private set; }

    /// <summary>True when a create or drop was recorded since the last reset.</summary>
    public bool HasRecords => EndPosition > ControlLogFormat.HeaderLength;

    /// <summary>
    /// Opens the log at <paramref name="path"/>, or makes an empty one, and reads its records in order up to the first
    /// that is torn or of an earlier epoch. A missing, short or all-zero header (a log that never reached the disk)
    /// reads as no records.
    /// </summary>
    /// <exception cref="InvalidDataException">The header has non-zero bytes and fails its checksum.</exception>
    public static ControlLog Open(string path, out List<ControlRecord> records)
    {
        records = [];
        SafeFileHandle handle = File.OpenHandle(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.Read);
        try
        {
            byte[] bytes = new byte[RandomAccess.GetLength(handle)];
            int read = 0;
            for (int got; read < bytes.Length && (got = RandomAccess.Read(handle, bytes.AsSpan(read), read)) > 0;)
            {
                read += got;
            }

            ReadOnlySpan<byte> content = bytes.AsSpan(0, read);
            if (ControlLogFormat.IsUnwritten(content))
            {
                var empty = new ControlLog(handle, 0, 0);
                empty.Reset();
                return empty;
            }

            if (!ControlLogFormat.TryReadHeader(content, out uint epoch))
            {
                throw new InvalidDataException($"'{path}' is not a control log: its header is of another format or fails its checksum.");
            }

            int position = ControlLogFormat.HeaderLength;
            while (ControlLogFormat.TryReadRecord(content[position..], epoch, out ControlRecord record, out int length))
            {
                records.Add(record);
                position += length;
            }

            return new ControlLog(handle, epoch, position);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    /// <summary>Appends one record with one write (to the page cache: from there it survives SIGKILL); the caller serialises appends.</summary>
    public void Append(ControlRecord record)
    {
        Span<byte> bytes = stackalloc byte[ControlLogFormat.MaxRecordLength];
        int length = ControlLogFormat.WriteRecord(bytes, _epoch, record);
        RandomAccess.Write(_handle, bytes[..length], EndPosition);
        EndPosition += length;
    }

    /// <summary>
    /// Forgets every record, once what they say is durable in <c>filters/</c>: a header of the next epoch (which makes
    /// any record still behind it unreadable), the file cut to that header, and an fsync, so that power loss cannot
    /// bring back records older than the interval.
    /// </summary>
    public void Reset()
    {
        Span<byte> header = stackalloc byte[ControlLogFormat.HeaderLength];
        ControlLogFormat.WriteHeader(header, ++_epoch);
        RandomAccess.Write(_handle, header, 0);
        RandomAccess.SetLength(_handle, ControlLogFormat.HeaderLength);
        RandomAccess.FlushToDisk(_handle);
        EndPosition = ControlLogFormat.HeaderLength;
    }

    public void Dispose() => _handle.Dispose();
}
