using System.Runtime.InteropServices;

namespace EventLog.Segments;

/// <summary>
/// fsync of a directory, so that a file created or renamed in it survives a power cut. .NET has no API for it; on Linux
/// and macOS the C library does it. Windows makes a create or rename durable with the file itself.
/// </summary>
internal static class DirectorySync
{
    private const int ReadOnly = 0;

    /// <summary>Makes the entries of <paramref name="directory"/> durable.</summary>
    public static void Sync(string directory)
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        int fd = NativeMethods.open(directory, ReadOnly);
        if (fd < 0)
        {
            throw new IOException($"Cannot open directory '{directory}' to make it durable (errno {Marshal.GetLastPInvokeError()}).");
        }

        try
        {
            if (NativeMethods.fsync(fd) != 0)
            {
                throw new IOException($"fsync of directory '{directory}' failed (errno {Marshal.GetLastPInvokeError()}).");
            }
        }
        finally
        {
            _ = NativeMethods.close(fd);
        }
    }

    // Classic DllImport with runtime marshalling: LibraryImport's generated code needs AllowUnsafeBlocks, and this
    // project has no pointers of its own.
    private static class NativeMethods
    {
        [DllImport("libc", SetLastError = true)]
        [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
        public static extern int open([MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags);

        [DllImport("libc", SetLastError = true)]
        [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
        public static extern int fsync(int fd);

        [DllImport("libc", SetLastError = true)]
        [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
        public static extern int close(int fd);
    }
}
