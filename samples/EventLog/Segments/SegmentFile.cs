using EventFilter.Storage;
using System.Globalization;
using Microsoft.Win32.SafeHandles;

namespace EventLog.Segments;

/// <summary>
/// One segment file of the log. Its name is the global log position of its first byte, so a position maps to a file
/// without any table, and the segment size may change between runs without moving a single position.
/// </summary>
internal sealed class SegmentFile : IDisposable
{
    private const string Prefix = "segment-";
    private const string Extension = ".log";

    private SegmentFile(string path, long start, SafeFileHandle handle)
    {
        Path = path;
        Start = start;
        Handle = handle;
    }

    /// <summary>The file's path.</summary>
    public string Path { get; }

    /// <summary>The global log position of the file's first byte.</summary>
    public long Start { get; }

    /// <summary>Read and write handle; positioned reads and writes (pread/pwrite) make it safe to share between threads.</summary>
    public SafeFileHandle Handle { get; }

    /// <summary>The file's current length on disk.</summary>
    public long FileLength => RandomAccess.GetLength(Handle);

    /// <summary>The file name of the segment starting at <paramref name="start"/>.</summary>
    public static string FileNameFor(long start) => $"{Prefix}{start.ToString("D20", CultureInfo.InvariantCulture)}{Extension}";

    /// <summary>The start position encoded in a segment file name; null for any other file.</summary>
    public static long? TryParseStart(string fileName)
    {
        if (!fileName.StartsWith(Prefix, StringComparison.Ordinal) || !fileName.EndsWith(Extension, StringComparison.Ordinal))
        {
            return null;
        }

        ReadOnlySpan<char> digits = fileName.AsSpan(Prefix.Length, fileName.Length - Prefix.Length - Extension.Length);
        return long.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out long start) ? start : null;
    }

    /// <summary>Opens an existing segment.</summary>
    public static SegmentFile Open(string path, long start) =>
        new(path, start, File.OpenHandle(path, FileMode.Open, FileAccess.ReadWrite, FileShare.Read));

    /// <summary>Creates an empty segment and makes its directory entry durable; on failure, leaves no file behind.</summary>
    public static SegmentFile Create(string directory, long start)
    {
        string path = System.IO.Path.Combine(directory, FileNameFor(start));
        SafeFileHandle handle = File.OpenHandle(path, FileMode.CreateNew, FileAccess.ReadWrite, FileShare.Read);
        try
        {
            DurableDirectory.Sync(directory);
        }
        catch
        {
            handle.Dispose();
            File.Delete(path);
            throw;
        }

        return new SegmentFile(path, start, handle);
    }

    /// <summary>Cuts the file at <paramref name="length"/> bytes and makes that durable.</summary>
    public void TruncateTo(long length)
    {
        RandomAccess.SetLength(Handle, length);
        RandomAccess.FlushToDisk(Handle);
    }

    /// <inheritdoc/>
    public void Dispose() => Handle.Dispose();
}
