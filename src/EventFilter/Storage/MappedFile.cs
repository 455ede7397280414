using System.IO.MemoryMappedFiles;
using System.Runtime.InteropServices;
using EventFilter.Errors;
using EventFilter.Format;

namespace EventFilter.Storage;

/// <summary>
/// A whole file mapped into memory, privately (copy-on-write), its pointer acquired once and released on Dispose.
/// Stores into the mapping never reach the file by themselves: the kernel neither writes them back behind our
/// back nor write-protects pages to track them, so a flush cannot stall an add. Changes reach the file only through
/// <see cref="WriteBack"/> (positioned writes of whole blocks). See docs/design.md, section "Changed-line journal".
/// A writable file holds its writer lock (<see cref="AcquireWriterLock"/>), so a second writer fails at open, not at
/// first corruption.
/// </summary>
internal sealed unsafe partial class MappedFile : IDisposable
{
    private readonly FileStream _stream;
    private readonly MemoryMappedFile _map;
    private readonly MemoryMappedViewAccessor _view;
    private LockFile? _writerLock;
    private byte* _pointer;

    private MappedFile(FileStream stream, bool writable, LockFile? writerLock = null)
    {
        _stream = stream;
        _writerLock = writerLock;
        Length = stream.Length;
        Writable = writable;
        // CopyOnWrite is MAP_PRIVATE: readable and writable memory over the file, whatever the file's own access.
        _map = MemoryMappedFile.CreateFromFile(stream, mapName: null, Length, MemoryMappedFileAccess.CopyOnWrite, HandleInheritability.None, leaveOpen: true);
        _view = _map.CreateViewAccessor(0, Length, MemoryMappedFileAccess.CopyOnWrite);
        byte* pointer = null;
        _view.SafeMemoryMappedViewHandle.AcquirePointer(ref pointer);
        _pointer = pointer + _view.PointerOffset;
    }

    public string Path => _stream.Name;

    public long Length { get; }

    public bool Writable { get; }

    /// <summary>The first byte of the file; valid until Dispose.</summary>
    public byte* Pointer => _pointer;

    public Span<byte> Span(long offset, int length) => new(_pointer + offset, length);

    /// <summary>Opens an existing file. Throws what FileStream throws for a missing or locked file.</summary>
    public static MappedFile Open(string path, bool writable) => Open(path, writable, writable ? AcquireWriterLock(path) : null);

    /// <summary>The lock file of <paramref name="filePath"/>'s writer: <c>&lt;file&gt;.lock</c>.</summary>
    public static string WriterLockPath(string filePath) => filePath + ".lock";

    /// <summary>
    /// One writer per file, across processes: two servers on one data directory would otherwise let one's checkpoint
    /// vouch for names only the other added. The lock goes with the name, not the file (<see cref="TakeOverWriterLock"/>).
    /// </summary>
    /// <exception cref="FilterFileInUseException">Another process, or another open in this one, holds the lock.</exception>
    public static LockFile AcquireWriterLock(string path) =>
        LockFile.TryAcquire(WriterLockPath(path), out LockFile? acquired, out IOException? held) ? acquired : throw new FilterFileInUseException(path, held);

    /// <summary>Opens with a writer lock already held; the mapping owns it from here, or releases it on failure.</summary>
    private static MappedFile Open(string path, bool writable, LockFile? writerLock)
    {
        FileStream? stream = null;
        try
        {
            stream = new FileStream(
                path,
                FileMode.Open,
                writable ? FileAccess.ReadWrite : FileAccess.Read,
                writable ? FileShare.Read : FileShare.ReadWrite,
                bufferSize: 0);
            if (stream.Length == 0)
            {
                // A zero-length file cannot be mapped; report it as what it is, a truncated filter.
                throw new FilterFileLengthException(path, 0, FilterGeometry.MinSizeBytes);
            }

            return new MappedFile(stream, writable, writerLock);
        }
        catch
        {
            stream?.Dispose();
            writerLock?.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Creates a zero-filled file of <paramref name="length"/> bytes with every block reserved, starting with
    /// <paramref name="head"/>, makes it durable (unless <paramref name="sync"/> is false), and only then gives it its
    /// final name. A crash of the process at any point leaves either no file or a complete one; so does power loss
    /// when <paramref name="sync"/> is true.
    /// </summary>
    public static MappedFile CreateAtomically(string path, long length, ReadOnlySpan<byte> head, bool sync = true)
    {
        // Held from before the new file appears until it is open, so no other writer can slip in between.
        LockFile writerLock = AcquireWriterLock(path);
        try
        {
            CreateFile(path, length, head, sync);
        }
        catch
        {
            // Leave nothing half-made behind: a failed create changes nothing.
            File.Delete(path + ".tmp");
            writerLock.Dispose();
            throw;
        }

        return Open(path, writable: true, writerLock);
    }

    private static void CreateFile(string path, long length, ReadOnlySpan<byte> head, bool sync)
    {
        string temporary = path + ".tmp";
        File.Delete(temporary);

        // Reserve every block now (posix_fallocate): a sparse file on a full disk would fail later, inside the mapping,
        // as SIGBUS on the first add that touches an unallocated page. Here it fails as an IOException instead.
        var create = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.ReadWrite, Share = FileShare.None, BufferSize = 0, PreallocationSize = length };
        using (var stream = new FileStream(temporary, create))
        {
            stream.SetLength(length);
            RandomAccess.Write(stream.SafeFileHandle, head, 0);
            if (sync)
            {
                RandomAccess.FlushToDisk(stream.SafeFileHandle);
            }
        }

        File.Move(temporary, path, overwrite: true);
        if (sync)
        {
            DurableDirectory.Sync(System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(path))!);
        }
    }

    /// <summary>
    /// Makes the private copy of every page now, with one <c>madvise(MADV_POPULATE_WRITE)</c>, rather than one
    /// copy-on-write fault at a time as adds first touch them; false where the kernel (before Linux 5.14) or the
    /// platform has no such call, which changes nothing but speed. The contents are unchanged.
    /// </summary>
    /// <remarks>
    /// With <paramref name="parts"/> above 1, the file is cut into that many page-aligned ranges populated at once, one
    /// per thread (the caller's included): each private copy is a page allocated and 4 KiB copied, work that the
    /// kernel does in parallel under the mapping's read lock.
    /// </remarks>
    public bool PopulateForWrites(int parts = 1)
    {
        if (!OperatingSystem.IsLinux() || !Writable)
        {
            return false;
        }

        // The view maps the file from offset 0, so the pointer is page-aligned, as madvise requires.
        long pages = (Length + Environment.SystemPageSize - 1) / Environment.SystemPageSize;
        int failures = 0;
        parts = (int)Math.Clamp(parts, 1, Math.Max(1, pages));
        Parallel.For(0, parts, part =>
        {
            long first = pages * part / parts, end = Math.Min(Length, pages * (part + 1) / parts * Environment.SystemPageSize);
            long offset = first * Environment.SystemPageSize;
            if (end > offset && Madvise(_pointer + offset, (nuint)(end - offset), PopulateWrite) != 0)
            {
                Interlocked.Increment(ref failures);
            }
        });
        return failures == 0;
    }

    /// <summary>
    /// Tells the kernel the mapping is about to be read in order (<c>madvise(MADV_SEQUENTIAL)</c>), or no longer
    /// (<c>MADV_NORMAL</c>). Reading a file that is not in memory through a mapping, the kernel stops reading ahead
    /// after enough faults that missed, and then reads one page per fault; in order, it always reads ahead, so a scan
    /// of a cold file goes at the device's pace. A warm file costs nothing more. False where there is no such call.
    /// </summary>
    public bool AdviseSequential(bool sequential) =>
        OperatingSystem.IsLinux() && _pointer != null && Madvise(_pointer, (nuint)Length, sequential ? Sequential : Normal) == 0;

    /// <summary>Writes <paramref name="bytes"/> to the file at <paramref name="offset"/> (not through the mapping).</summary>
    public void WriteBack(long offset, ReadOnlySpan<byte> bytes)
    {
        ThrowIfReadOnly();
        RandomAccess.Write(_stream.SafeFileHandle, bytes, offset);
    }

    /// <summary>
    /// This file was renamed over <paramref name="replaced"/>'s (a resize swap): it takes over the writer lock of that
    /// name and releases its own, which named the path it had before, so the next resize can lock that path again.
    /// <paramref name="replaced"/> keeps its mapping but no lock: it must write no more.
    /// </summary>
    public void TakeOverWriterLock(MappedFile replaced)
    {
        LockFile? own = _writerLock;
        _writerLock = replaced._writerLock;
        replaced._writerLock = null;
        own?.Dispose();
    }

    /// <summary>Makes every <see cref="WriteBack"/> so far durable (fsync).</summary>
    public void Sync()
    {
        ThrowIfReadOnly();
        RandomAccess.FlushToDisk(_stream.SafeFileHandle);
    }

    public void Dispose()
    {
        if (_pointer != null)
        {
            _pointer = null;
            _view.SafeMemoryMappedViewHandle.ReleasePointer();
        }

        _view.Dispose();
        _map.Dispose();
        _stream.Dispose();
        _writerLock?.Dispose();
    }

    private void ThrowIfReadOnly()
    {
        if (!Writable)
        {
            throw new InvalidOperationException($"Filter file '{Path}' was opened read-only.");
        }
    }

    private const int PopulateWrite = 23; // MADV_POPULATE_WRITE
    private const int Normal = 0; // MADV_NORMAL
    private const int Sequential = 2; // MADV_SEQUENTIAL

    [LibraryImport("libc", EntryPoint = "madvise")]
    private static partial int Madvise(void* address, nuint length, int advice);
}
