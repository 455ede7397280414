using System.Buffers.Binary;
using System.IO.Hashing;

namespace EventFilter.Daemon.Formats;

/// <summary>
/// The key file of a filter whose key is too long to be its directory's name (docs/daemon.md, "Files"): "EFKEYFIL",
/// the key's length (uint32), a CRC-32 of the key, then the key's bytes, all little-endian. Written and fsynced before
/// the filter's digest log, so a filter whose key file is missing, short or zeros at its header is a create that never
/// reached the disk. eventfilterd writes it; <c>eventfilter inspect DIR</c> reads it.
/// </summary>
public static class KeyFileFormat
{
    /// <summary>The magic, the length and the CRC-32.</summary>
    public const int HeaderLength = 16;

    private static ReadOnlySpan<byte> Magic => "EFKEYFIL"u8;

    /// <summary>The whole file for <paramref name="key"/>.</summary>
    public static byte[] Write(ReadOnlySpan<byte> key)
    {
        byte[] file = new byte[HeaderLength + key.Length];
        Magic.CopyTo(file);
        BinaryPrimitives.WriteUInt32LittleEndian(file.AsSpan(8), (uint)key.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(file.AsSpan(12), Crc32.HashToUInt32(key));
        key.CopyTo(file.AsSpan(HeaderLength));
        return file;
    }

    /// <summary>The key in <paramref name="file"/>; false when it is short, of another format, or fails its checksum.</summary>
    public static bool TryRead(ReadOnlySpan<byte> file, out byte[] key)
    {
        key = [];
        if (file.Length < HeaderLength || !file[..8].SequenceEqual(Magic))
        {
            return false;
        }

        uint length = BinaryPrimitives.ReadUInt32LittleEndian(file[8..]);
        if (file.Length - HeaderLength != length || BinaryPrimitives.ReadUInt32LittleEndian(file[12..]) != Crc32.HashToUInt32(file[HeaderLength..]))
        {
            return false;
        }

        key = file[HeaderLength..].ToArray();
        return true;
    }

    /// <summary>
    /// The key of the filter in <paramref name="directory"/>: from its name, or for a hashed name from its key file.
    /// </summary>
    /// <exception cref="InvalidDataException">The key file is damaged, or holds a key that is not this directory's.</exception>
    /// <exception cref="IOException">The key file cannot be read.</exception>
    public static byte[] ReadKey(string directory)
    {
        string name = Path.GetFileName(directory);
        if (KeyNames.TryParse(name, out byte[] key))
        {
            return key;
        }

        string path = Path.Combine(directory, DataLayout.KeyFile);
        if (!TryRead(File.ReadAllBytes(path), out key) || !KeyNames.Names(name, key))
        {
            throw new InvalidDataException($"The key file '{path}' is damaged or names another filter.");
        }

        return key;
    }

    /// <summary>As <see cref="DigestLogFormat.IsUnwritten"/>: fewer bytes than a header, or a header of zeros, is a key file never synced.</summary>
    public static bool IsUnwritten(ReadOnlySpan<byte> firstBytes) =>
        firstBytes.Length < HeaderLength || !firstBytes[..HeaderLength].ContainsAnyExcept((byte)0);
}
