using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace EventFilter.Storage;

/// <summary>
/// Disk space reserved for a file that is written through a shared mapping: a store into a page with no block behind
/// it fails, on a full disk, as SIGBUS, which ends the process. Reserving the blocks first turns that into an
/// <see cref="IOException"/> at a point that can handle it.
/// </summary>
internal static partial class FileSpace
{
    /// <summary>
    /// Makes the file at least <paramref name="offset"/> + <paramref name="length"/> bytes long, every block of that
    /// range allocated, reading as zeros where nothing was written; bytes already there are kept. One
    /// <c>fallocate</c> on Linux, which only changes metadata; elsewhere, zeros written over the range past the end.
    /// </summary>
    /// <exception cref="IOException">The disk is full, or the file system refused.</exception>
    public static void Reserve(SafeFileHandle handle, long offset, long length)
    {
        if (OperatingSystem.IsLinux())
        {
            bool added = false;
            try
            {
                handle.DangerousAddRef(ref added);
                if (Fallocate((int)handle.DangerousGetHandle(), 0, offset, length) == 0)
                {
                    return;
                }

                int errno = Marshal.GetLastPInvokeError();
                if (errno != EOPNOTSUPP)
                {
                    throw new IOException($"Could not reserve {length} bytes at offset {offset} of '{handle}': {Marshal.GetPInvokeErrorMessage(errno)} (errno {errno}).");
                }
            }
            finally
            {
                if (added)
                {
                    handle.DangerousRelease();
                }
            }
        }

        // No fallocate (another OS, or a file system without it): write the zeros, which allocates as it goes.
        byte[] zeros = new byte[64 * 1024];
        for (long position = Math.Max(offset, RandomAccess.GetLength(handle)); position < offset + length; position += zeros.Length)
        {
            RandomAccess.Write(handle, zeros.AsSpan(0, (int)Math.Min(zeros.Length, offset + length - position)), position);
        }
    }

    private const int EOPNOTSUPP = 95;

    [LibraryImport("libc", EntryPoint = "fallocate", SetLastError = true)]
    private static partial int Fallocate(int fd, int mode, long offset, long length);
}
