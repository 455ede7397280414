using System.Buffers.Binary;
using System.Numerics;

namespace EventFilter.Format;

/// <summary>
/// CRC-32C (Castagnoli) over any span, with the usual initial value and final XOR (the check value of "123456789" is
/// 0xE3069283): the filter's journal records, the event log's records and index files. <see cref="BitOperations.Crc32C(uint, ulong)"/>
/// is the SSE4.2 / ARMv8 instruction where there is one (System.IO.Hashing has no CRC-32C). The filter's
/// <c>LineChecksum</c> is the same CRC run from 0 with no final XOR (<c>Append(0, bytes 0-59)</c>), unrolled for the
/// fixed 60-byte line on the verification hot path.
/// </summary>
internal static class Crc32C
{
    /// <summary>The running value to start an incremental checksum from.</summary>
    public const uint Seed = uint.MaxValue;

    /// <summary>The checksum of <paramref name="data"/>.</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => Finish(Append(Seed, data));

    /// <summary>Feeds more bytes into a running value started at <see cref="Seed"/>.</summary>
    public static uint Append(uint running, ReadOnlySpan<byte> data)
    {
        while (data.Length >= sizeof(ulong))
        {
            running = BitOperations.Crc32C(running, BinaryPrimitives.ReadUInt64LittleEndian(data));
            data = data[sizeof(ulong)..];
        }

        foreach (byte b in data)
        {
            running = BitOperations.Crc32C(running, b);
        }

        return running;
    }

    /// <summary>Turns a running value into the checksum.</summary>
    public static uint Finish(uint running) => ~running;
}
