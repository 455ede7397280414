using System.Runtime.CompilerServices;

namespace EventFilter.Daemon.Protocol;

/// <summary>
/// What a connection's buffers keep between requests: what an ordinary request needs, never what one large request
/// grew them to, and a count of the large arrays given up, so that <see cref="Server.MemoryTrim"/> can return their
/// memory to the system once the load has passed (docs/daemon-design.md, "Memory").
/// </summary>
internal static class LargeBuffers
{
    /// <summary>
    /// Arrays of up to this many bytes are kept for the next request. Below the large object heap's 85,000 bytes, so a
    /// connection whose requests stay under it never reallocates, and what it drops is collected young.
    /// </summary>
    public const int KeepBytes = 64 * 1024;

    // Shared by every connection thread and read by the trim's tick, hence Interlocked.
    private static long s_released;

    /// <summary><paramref name="array"/> when it is small enough to keep; else a new one of <paramref name="length"/>, the large one counted as released.</summary>
    public static T[] Shrink<T>(T[] array, int length)
    {
        if ((long)array.Length * Unsafe.SizeOf<T>() <= KeepBytes)
        {
            return array;
        }

        Released(array);
        return new T[length];
    }

    /// <summary>Counts <paramref name="array"/>, about to become garbage, when it is large.</summary>
    public static void Released<T>(T[] array)
    {
        long bytes = (long)array.Length * Unsafe.SizeOf<T>();
        if (bytes > KeepBytes)
        {
            Interlocked.Add(ref s_released, bytes);
        }
    }

    /// <summary>The bytes of large arrays given up since the last call.</summary>
    public static long TakeReleased() => Interlocked.Exchange(ref s_released, 0);
}
