using EventFilter;

namespace EventLog.Index;

/// <summary>
/// The Bloom filter beside each index file (<c>index-000003.bloom</c>), built with the core's <see cref="FilterFile"/>
/// and sized by <see cref="FalsePositiveModel.SizeFor"/> from the file's distinct streams and the target rate. A
/// "definitely not" lets a lookup skip the file without reading it. It holds the index's own stream hashes
/// (<see cref="FilterFile.AddHash"/>), so a merge can build one from entries alone, without the names.
/// </summary>
internal static class IndexFileFilter
{
    /// <summary>The filter's path beside an index file.</summary>
    public static string PathFor(string indexPath) => Path.ChangeExtension(indexPath, ".bloom");

    /// <summary>The filter size for <paramref name="streams"/> distinct streams at <paramref name="rate"/> false positives.</summary>
    public static long SizeFor(long streams, double rate)
    {
        long size = FalsePositiveModel.SizeFor(Math.Max(1, streams), rate, FilterFileOptions.DefaultK);
        return size < 0 ? FilterFileOptions.MaxSizeBytes : Math.Max(FilterFileOptions.MinSizeBytes, size);
    }

    /// <summary>Creates an empty filter of <paramref name="sizeBytes"/>, replacing any file there.</summary>
    public static FilterFile Create(string path, long sizeBytes) => FilterFile.Create(path, Options(sizeBytes));

    /// <summary>
    /// Opens and verifies the filter (corrupted lines become all ones). When it is missing, unreadable, of another size or
    /// too corrupted, creates an empty one and says so: the caller must add every hash of the index file to it.
    /// </summary>
    public static FilterFile OpenOrCreate(string path, long sizeBytes, out bool mustFill)
    {
        try
        {
            FilterFile file = FilterFile.Open(path, Options(sizeBytes));
            if (!file.Verification.RebuildRequired)
            {
                mustFill = file.Created;
                return file;
            }

            file.Dispose();
        }
        catch (FilterFileException)
        {
            // An unreadable header, another size or a cut file: a filter is cheap to rebuild from its index file.
        }

        mustFill = true;
        return Create(path, sizeBytes);
    }

    /// <summary>
    /// Removes the filter of an index file that is gone, and its writer-lock file: index file ids only grow, so the
    /// name is never opened again and the lock file would otherwise pile up with every merge.
    /// </summary>
    public static void Delete(string indexPath)
    {
        string path = PathFor(indexPath);
        File.Delete(path);
        File.Delete(path + ".lock");
    }

    private static FilterFileOptions Options(long sizeBytes) => new() { SizeBytes = sizeBytes };
}
