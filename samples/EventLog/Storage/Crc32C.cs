using System.Buffers.Binary;
using System.Numerics;

namespace EventLog.Storage;

/// <summary>
/// CRC-32C (Castagnoli) with the usual initial value and final XOR (check value of "123456789": 0xE3069283), over the
/// engine's records and index files. The hardware instruction through <see cref="BitOperations.Crc32C(uint, ulong)"/>;
/// the filter library keeps its own for its lines, so the engine owns this one (System.IO.Hashing has no CRC-32C).
/// </summary>
internal static class Crc32C
{
    public const uint Seed = uint.MaxValue;

    public static uint Compute(ReadOnlySpan<byte> data) => Finish(Append(Seed, data));

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

    public static uint Finish(uint running) => ~running;
}
