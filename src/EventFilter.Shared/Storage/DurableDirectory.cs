using System.Runtime.InteropServices;

namespace EventFilter.Storage;

/// <summary>
/// fsync of a directory, so that a create or rename in it survives a power cut. .NET has no API for it;
/// on Linux and macOS we call the C library directly. Windows makes renames durable with the file itself.
/// </summary>
internal static partial class DurableDirectory
{
    private const int ReadOnly = 0;

    /// <summary>Makes the entries of <paramref name="directory"/> (creates, renames, deletes) durable.</summary>
    /// <exception cref="IOException">The directory cannot be opened or synced.</exception>
    public static void Sync(string directory)
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        int fd = Open(directory, ReadOnly);
        if (fd < 0)
        {
            throw new IOException($"Cannot open directory '{directory}' to make it durable (errno {Marshal.GetLastPInvokeError()}).");
        }

        try
        {
            if (Fsync(fd) != 0)
            {
                throw new IOException($"fsync of directory '{directory}' failed (errno {Marshal.GetLastPInvokeError()}).");
            }
        }
        finally
        {
            _ = Close(fd);
        }
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int Fsync(int fd);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    private static partial int Close(int fd);
}
