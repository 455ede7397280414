using EventFilter.Storage;
using Microsoft.Win32.SafeHandles;

namespace EventFilter.Journal;

/// <summary>
/// The newest journal generation, open for appending. Created durably (header written, fsynced, directory fsynced)
/// before any record goes in, so a commit inside it can never outlive the file's name.
/// </summary>
internal sealed class JournalWriter : IDisposable
{
    /// <summary>The device writes whole blocks; a flush reports the blocks its append touched.</summary>
    public const int BlockSize = 4096;

    private readonly SafeFileHandle _handle;

    private JournalWriter(SafeFileHandle handle, string path, ulong generation, uint salt)
    {
        _handle = handle;
        Path = path;
        Generation = generation;
        Salt = salt;
        Length = JournalHeader.Length;
    }

    public string Path { get; }

    public ulong Generation { get; }

    /// <summary>The header's checksum, which salts every record's.</summary>
    public uint Salt { get; }

    public long Length { get; private set; }

    /// <summary>Records appended so far (commits count them, to catch a lost record).</summary>
    public long Records { get; private set; }

    public static JournalWriter Create(string filterPath, ulong generation, Guid filterFileId)
    {
        string path = JournalFiles.PathFor(filterPath, generation);
        SafeFileHandle handle = File.OpenHandle(path, FileMode.Create, FileAccess.ReadWrite, FileShare.Read);
        try
        {
            Span<byte> header = stackalloc byte[JournalHeader.Length];
            uint salt = new JournalHeader(generation, filterFileId).WriteTo(header);
            RandomAccess.Write(handle, header, 0);
            RandomAccess.FlushToDisk(handle);
            DurableDirectory.Sync(System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(path))!);
            return new JournalWriter(handle, path, generation, salt);
        }
        catch
        {
            handle.Dispose();
            throw;
        }
    }

    /// <summary>Appends whole records.</summary>
    public void Append(ReadOnlySpan<byte> records, int recordCount)
    {
        RandomAccess.Write(_handle, records, Length);
        Length += records.Length;
        Records += recordCount;
    }

    /// <summary>Makes every append durable (fsync); what is synced is the length a failed flush goes back to.</summary>
    public void Sync()
    {
        RandomAccess.FlushToDisk(_handle);
        SyncedLength = Length;
        SyncedRecords = Records;
    }

    /// <summary>The length as of the last successful <see cref="Sync"/>.</summary>
    public long SyncedLength { get; private set; } = JournalHeader.Length;

    private long SyncedRecords { get; set; }

    /// <summary>
    /// After a failed append or fsync: cut the file back to its last synced length, so the next commit does not sit
    /// behind a half-written record. Returns false when even that fails; the caller then starts a new generation.
    /// </summary>
    public bool TryRewindToSynced()
    {
        try
        {
            RandomAccess.SetLength(_handle, SyncedLength);
            RandomAccess.FlushToDisk(_handle);
            Length = SyncedLength;
            Records = SyncedRecords;
            return true;
        }
        catch (IOException)
        {
            return false;
        }
    }

    public void Dispose() => _handle.Dispose();

    /// <summary>Bytes of the whole blocks that [start, end) touches: what the device writes for it.</summary>
    public static long BlockSpan(long start, long end) =>
        end <= start ? 0 : (((end + BlockSize - 1) / BlockSize) - (start / BlockSize)) * BlockSize;
}
