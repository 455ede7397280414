using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace EventFilter.Format;

/// <summary>
/// The 4-byte checksum at the end of every line: CRC-32C (Castagnoli) of bytes 0-59, initial value 0, no final XOR.
/// See docs/file-format.md, section "Line checksum".
/// </summary>
/// <remarks>
/// Why this CRC and not a general hash: with a zero initial value the CRC is linear over GF(2), so an all-zero line
/// (a fresh, sparse file) checks as valid with checksum 0, and setting bits can update the checksum by XOR-ing in one
/// precomputed value per newly set bit instead of re-reading the line. An add therefore keeps the checksum in step at
/// the cost of k table lookups, and a line corrupted in memory stays detectably corrupt instead of being re-blessed.
/// CRC-32C is also what the hardware computes (SSE4.2, ARMv8), via <see cref="BitOperations.Crc32C(uint, ulong)"/>.
/// </remarks>
internal static class LineChecksum
{
    /// <summary>Checksum of a line that has only bit <c>b</c> set, for every b in [0, 480).</summary>
    private static readonly uint[] SingleBit = BuildSingleBitTable();

    /// <summary>Computes the checksum of the 60 bit-bytes at the start of <paramref name="line"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint Compute(ReadOnlySpan<byte> line)
    {
        if (line.Length < FilterGeometry.BitBytesPerLine)
        {
            throw new ArgumentException($"A line needs {FilterGeometry.BitBytesPerLine} bytes.", nameof(line));
        }

        ref byte start = ref MemoryMarshal.GetReference(line);
        uint crc = 0;
        for (int offset = 0; offset < 56; offset += 8)
        {
            crc = BitOperations.Crc32C(crc, Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref start, offset)));
        }

        return BitOperations.Crc32C(crc, Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref start, 56)));
    }

    /// <summary>
    /// The checksums of four consecutive lines (at <paramref name="lines"/>, +64, +128, +192) as four independent CRC
    /// chains, interleaved: the CRC instruction takes 3 cycles but can start every cycle, so one line's chain alone
    /// would leave it idle two cycles in three. The line scan on open is bound by this (docs/design.md, "Verification").
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static unsafe void ComputeFour(byte* lines, out uint first, out uint second, out uint third, out uint fourth)
    {
        uint a = 0, b = 0, c = 0, d = 0;
        for (int offset = 0; offset < 56; offset += 8)
        {
            a = BitOperations.Crc32C(a, *(ulong*)(lines + offset));
            b = BitOperations.Crc32C(b, *(ulong*)(lines + 64 + offset));
            c = BitOperations.Crc32C(c, *(ulong*)(lines + 128 + offset));
            d = BitOperations.Crc32C(d, *(ulong*)(lines + 192 + offset));
        }

        first = BitOperations.Crc32C(a, *(uint*)(lines + 56));
        second = BitOperations.Crc32C(b, *(uint*)(lines + 64 + 56));
        third = BitOperations.Crc32C(c, *(uint*)(lines + 128 + 56));
        fourth = BitOperations.Crc32C(d, *(uint*)(lines + 192 + 56));
    }

    /// <summary>The checksum contribution of bit <paramref name="bit"/> (0-479): XOR it in when that bit goes from 0 to 1.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static uint OfBit(uint bit) => Unsafe.Add(ref MemoryMarshal.GetArrayDataReference(SingleBit), (nint)bit);

    /// <summary>Reads the stored checksum (little-endian, bytes 60-63).</summary>
    public static uint ReadStored(ReadOnlySpan<byte> line) =>
        System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(line.Slice(FilterGeometry.BitBytesPerLine, 4));

    private static uint[] BuildSingleBitTable()
    {
        var table = new uint[FilterGeometry.BitsPerLine];
        Span<byte> line = stackalloc byte[FilterGeometry.LineSize];
        for (int bit = 0; bit < table.Length; bit++)
        {
            line.Clear();
            line[bit >> 3] = (byte)(1 << (bit & 7));
            table[bit] = Compute(line);
        }

        return table;
    }
}
