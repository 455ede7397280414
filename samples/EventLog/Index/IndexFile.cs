using System.Globalization;
using EventFilter;
using Microsoft.Win32.SafeHandles;

namespace EventLog.Index;

/// <summary>
/// One immutable, sorted index file (like an EventStoreDB PTable): a header and (hash, event number, position) entries,
/// plus its block keys in memory and, when enabled, its own Bloom filter. Shared by index views through a reference
/// count: whoever opens or writes a file holds the first reference and releases it once a view holds the file. A file
/// merged away is deleted when the last view that can still see it lets go.
/// </summary>
internal sealed partial class IndexFile
{
    private const string Prefix = "index-";
    private const string Extension = ".idx";

    private readonly SafeFileHandle _handle;
    private readonly BlockKeys _blocks;
    private int _references = 1;
    private volatile bool _deleteWhenUnused;

    private IndexFile(string path, long id, IndexFileHeader header, SafeFileHandle handle, BlockKeys blocks, FilterFile? filter)
    {
        Path = path;
        Id = id;
        Header = header;
        _handle = handle;
        _blocks = blocks;
        Filter = filter;
    }

    /// <summary>The file's path.</summary>
    public string Path { get; }

    /// <summary>Its number: files are numbered in the order they were written.</summary>
    public long Id { get; }

    /// <summary>Its header: level, counts and the log range it covers.</summary>
    public IndexFileHeader Header { get; }

    /// <summary>Its own Bloom filter; null when per-file filters are off.</summary>
    public FilterFile? Filter { get; }

    /// <summary>The path of index file number <paramref name="id"/>.</summary>
    public static string PathFor(string directory, long id) =>
        System.IO.Path.Combine(directory, $"{Prefix}{id.ToString("D6", CultureInfo.InvariantCulture)}{Extension}");

    /// <summary>The number in an index file name; null for any other file.</summary>
    public static long? TryParseId(string fileName)
    {
        if (!fileName.StartsWith(Prefix, StringComparison.Ordinal) || !fileName.EndsWith(Extension, StringComparison.Ordinal))
        {
            return null;
        }

        ReadOnlySpan<char> digits = fileName.AsSpan(Prefix.Length, fileName.Length - Prefix.Length - Extension.Length);
        return long.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out long id) ? id : null;
    }

    /// <summary>False when the file's filter says the stream is definitely not here; true (maybe) otherwise.</summary>
    public bool MightContain(ulong hash) => Filter?.MightExistHash(hash) ?? true;

    /// <summary>One more holder (an index view) uses the file.</summary>
    public void AddReference() => Interlocked.Increment(ref _references);

    /// <summary>A holder is done with the file; the last one closes it (and deletes it if it was retired).</summary>
    public void Release()
    {
        if (Interlocked.Decrement(ref _references) == 0)
        {
            _handle.Dispose();
            Filter?.Dispose();
            if (_deleteWhenUnused)
            {
                File.Delete(Path);
                IndexFileFilter.Delete(Path);
            }
        }
    }

    /// <summary>
    /// The file was merged into another: delete it when the last view that can see it lets go. Call it before publishing
    /// the view without it, or the file may close undeleted.
    /// </summary>
    public void DeleteWhenUnused() => _deleteWhenUnused = true;
}
