using System.Runtime.InteropServices;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// The process's file-descriptor limit (RLIMIT_NOFILE) and how many it has open, and whether it may write a path: what
/// a start checks before it changes anything, and what the running daemon counts against (docs/daemon.md,
/// "Starting and stopping").
/// </summary>
internal static partial class ProcessLimits
{
    private const int RlimitNoFile = 7; // Linux
    private const int RlimitAddressSpace = 9; // Linux: RLIMIT_AS, ulimit -v
    private const int WriteOk = 2;
    private const int ExecuteOk = 1;
    private const int NotPermitted = 1; // EPERM
    private const int ReadOnlyFileSystem = 30; // EROFS

    /// <summary>
    /// The soft limit on open descriptors, first raised to the hard limit (as the .NET runtime does at start, and
    /// NativeAOT does not); long.MaxValue when unlimited or unknown.
    /// </summary>
    public static long DescriptorLimit()
    {
        if (getrlimit(RlimitNoFile, out RLimit limit) != 0)
        {
            return long.MaxValue;
        }

        if (limit.Current < limit.Maximum)
        {
            var raised = new RLimit { Current = limit.Maximum, Maximum = limit.Maximum };
            if (setrlimit(RlimitNoFile, in raised) == 0)
            {
                limit = raised;
            }
        }

        return limit.Current > long.MaxValue ? long.MaxValue : (long)limit.Current;
    }

    /// <summary>The soft limit as it is now (an operator may lower it with prlimit); long.MaxValue when unlimited.</summary>
    public static long CurrentDescriptorLimit() =>
        getrlimit(RlimitNoFile, out RLimit limit) != 0 || limit.Current > long.MaxValue ? long.MaxValue : (long)limit.Current;

    /// <summary>The soft limit on the process's address space (RLIMIT_AS) in bytes; long.MaxValue when unlimited.</summary>
    public static long AddressSpaceLimit() =>
        getrlimit(RlimitAddressSpace, out RLimit limit) != 0 || limit.Current > long.MaxValue ? long.MaxValue : (long)limit.Current;

    /// <summary>Descriptors the process has open now.</summary>
    public static int OpenDescriptors()
    {
        try
        {
            return Directory.EnumerateFileSystemEntries("/proc/self/fd").Count();
        }
        catch (IOException)
        {
            return 0;
        }
    }

    /// <summary>True when this process may create, rename and remove entries in <paramref name="directory"/>.</summary>
    public static bool CanWriteDirectory(string directory) => access(directory, WriteOk | ExecuteOk) == 0;

    /// <summary>True when this process may write the file at <paramref name="path"/>.</summary>
    public static bool CanWriteFile(string path) => access(path, WriteOk) == 0;

    /// <summary>
    /// Null when this process may create entries in <paramref name="directory"/>; else why not, with what to do (a
    /// read-only mount, an immutable directory and missing permission each need a different fix).
    /// </summary>
    public static string? WriteDenial(string directory)
    {
        if (access(directory, WriteOk | ExecuteOk) == 0)
        {
            return null;
        }

        return Marshal.GetLastPInvokeError() switch
        {
            ReadOnlyFileSystem => "it is on a read-only file system: mount it read-write or choose another --data",
            NotPermitted => "it is immutable (chattr -i) or otherwise not permitted: lift that or choose another --data",
            _ => $"its user (uid {geteuid()}) may not write there: give it write access or choose another --data",
        };
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct RLimit
    {
        public ulong Current;
        public ulong Maximum;
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial int getrlimit(int resource, out RLimit limit);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int setrlimit(int resource, in RLimit limit);

    [LibraryImport("libc", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int access(string path, int mode);

    [LibraryImport("libc")]
    private static partial uint geteuid();
}
