using System.Buffers.Binary;
using System.Numerics;

namespace EventLog.Records;

/// <summary>
/// CRC-32C (Castagnoli) over any span, with the usual initial value and final XOR (the check value of "123456789" is
/// 0xE3069283). It guards every log record and every index file. <see cref="BitOperations.Crc32C(uint, ulong)"/> is the
/// SSE4.2 / ARMv8 instruction where there is one. The core's <c>LineChecksum</c> is fixed to 60-byte lines with a zero
/// initial value, so it cannot serve here.
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
