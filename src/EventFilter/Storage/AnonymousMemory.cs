using System.Runtime.InteropServices;

namespace EventFilter.Storage;

/// <summary>
/// Zeroed memory of its own (not backed by any file), aligned to 2 MiB and offered transparent huge pages, for the
/// live bits of a writable filter. Against a private mapping of the file it saves, on Linux: a copy-on-write fault on
/// the first write to each 4 KiB page (one 2 MiB fault instead of 512), and a page walk on most random accesses of a
/// large filter (its huge pages fit the TLB). See docs/design.md, "Changed-line journal" (memory).
/// </summary>
internal sealed unsafe partial class AnonymousMemory : IDisposable
{
    private const nuint HugePage = 2 << 20;
    private const int ProtRead = 1, ProtWrite = 2, MapPrivate = 2, MapAnonymous = 0x20, MadviseHugePage = 14;

    private readonly byte* _base;
    private readonly nuint _reserved;

    private AnonymousMemory(byte* @base, nuint reserved, byte* pointer)
    {
        _base = @base;
        _reserved = reserved;
        Pointer = pointer;
    }

    /// <summary>The first byte; <c>length</c> zero bytes from here are readable and writable until Dispose.</summary>
    public byte* Pointer { get; }

    /// <summary>True where it can be had: Linux. Elsewhere writable filters keep their private mapping.</summary>
    public static bool IsSupported => OperatingSystem.IsLinux();

    /// <exception cref="OutOfMemoryException">The kernel refused the memory.</exception>
    public static AnonymousMemory Allocate(long length)
    {
        // One huge page more than asked, to start on a 2 MiB boundary: only aligned 2 MiB extents become huge pages.
        nuint reserved = (nuint)length + HugePage;
        byte* @base = (byte*)Mmap(null, reserved, ProtRead | ProtWrite, MapPrivate | MapAnonymous, -1, 0);
        if (@base == (byte*)-1)
        {
            throw new OutOfMemoryException($"mmap of {length:N0} bytes for a filter failed (errno {Marshal.GetLastPInvokeError()}).");
        }

        byte* aligned = (byte*)(((nuint)@base + HugePage - 1) & ~(HugePage - 1));

        // Advice, not a requirement: with transparent huge pages off, this fails or does nothing and 4 KiB pages serve.
        _ = Madvise(aligned, (nuint)length, MadviseHugePage);
        return new AnonymousMemory(@base, reserved, aligned);
    }

    public void Dispose() => _ = Munmap(_base, _reserved);

    [LibraryImport("libc", EntryPoint = "mmap", SetLastError = true)]
    private static partial void* Mmap(void* address, nuint length, int protection, int flags, int fd, nint offset);

    [LibraryImport("libc", EntryPoint = "munmap", SetLastError = true)]
    private static partial int Munmap(void* address, nuint length);

    [LibraryImport("libc", EntryPoint = "madvise", SetLastError = true)]
    private static partial int Madvise(void* address, nuint length, int advice);
}
