namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// Where benchmark filter files live: outside the repository, because the cached ones are up to 1 GiB.
/// <c>EVENTFILTER_BENCH_DIR</c> overrides the default of <c>$TMPDIR/eventfilter-benchmarks</c>.
/// Cached files are kept between runs (building a loaded 1 GiB filter takes a while); delete the folder to rebuild them.
/// </summary>
public static class BenchmarkDirectory
{
    public static string Path { get; } = Create();

    /// <summary>A path for a file that this process owns and deletes; the process id keeps runs apart.</summary>
    public static string Scratch(string name) => System.IO.Path.Combine(Path, $"scratch-{Environment.ProcessId}-{name}");

    public static string Cached(string name) => System.IO.Path.Combine(Path, name);

    /// <summary>
    /// Deletes a scratch filter file and its writer-lock file. The core never deletes a lock file (a live one must not
    /// vanish), but a scratch file is named by this process's id and closed by now, so nobody else can hold its lock.
    /// </summary>
    public static void DeleteQuietly(string path)
    {
        try
        {
            File.Delete(path);
            File.Delete(Storage.MappedFile.WriterLockPath(path));
        }
        catch (IOException)
        {
            // A leftover scratch file only costs disk space; never fail a benchmark for it.
        }
    }

    private static string Create()
    {
        string path = Environment.GetEnvironmentVariable("EVENTFILTER_BENCH_DIR")
            ?? System.IO.Path.Combine(System.IO.Path.GetTempPath(), "eventfilter-benchmarks");
        Directory.CreateDirectory(path);
        return path;
    }
}
