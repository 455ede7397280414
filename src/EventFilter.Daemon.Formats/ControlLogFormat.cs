using System.Buffers.Binary;
using System.IO.Hashing;
using System.Text;

namespace EventFilter.Daemon.Formats;

/// <summary>What a control-log record says happened to a filter's name.</summary>
public enum ControlAction : byte
{
    /// <summary>The filter was created with the record's <see cref="ControlRecord.Parameters"/>.</summary>
    Create = 1,

    /// <summary>The filter was dropped; the record carries no parameters.</summary>
    Drop = 2,

    /// <summary>Items were added to a filter that has no files yet: the record carries their digests, in log order.</summary>
    Items = 3,
}

/// <summary>One record of the control log: a create (with the filter's parameters), a drop, or items of the directory name.</summary>
/// <param name="Action">What happened to the filter.</param>
/// <param name="Name">The filter's directory name (<see cref="KeyNames.DirectoryName"/>).</param>
/// <param name="Parameters">For a create, the filter's parameters; otherwise <c>default</c>.</param>
/// <param name="Digests">For items, their digests in the order they were added; otherwise null.</param>
public readonly record struct ControlRecord(ControlAction Action, string Name, FilterParameters Parameters, ulong[]? Digests = null);

/// <summary>
/// The bytes of <c>control.log</c> (docs/daemon.md, "Files"), all little-endian. A 16-byte header: "EFCONTRL", the
/// epoch (uint32) and a CRC-32 of the 12 bytes before it. Then records: the name's length (uint16), the action (byte),
/// the name (ASCII, a <see cref="KeyNames"/> directory name), for a create the 40-byte digest-log header its filter's
/// log will start with (<see cref="DigestLogFormat"/>), for items their count (uint16, 1 to
/// <see cref="MaxItemsPerRecord"/>) and their digests (uint64 each, as in the digest log), and a CRC-32 of the epoch's 4 bytes followed by the record's
/// bytes before the CRC. Mixing in the epoch makes a record left over from before the last reset fail its checksum, so
/// reading stops there as it stops at a torn record. eventfilterd writes it; <c>eventfilter inspect DIR</c> reads it.
/// </summary>
public static class ControlLogFormat
{
    /// <summary>The length of the header: magic, epoch and checksum.</summary>
    public const int HeaderLength = 16;

    /// <summary>The most digests one items record holds; more items take more records.</summary>
    public const int MaxItemsPerRecord = 256;

    /// <summary>The longest record: items, as many as a record holds, of the longest name.</summary>
    public const int MaxRecordLength = 3 + KeyNames.MaxNameChars + sizeof(ushort) + (MaxItemsPerRecord * sizeof(ulong)) + sizeof(uint);

    private static ReadOnlySpan<byte> Magic => "EFCONTRL"u8;

    /// <summary>Writes the header of a file of <paramref name="epoch"/> into the first <see cref="HeaderLength"/> bytes of <paramref name="header"/>.</summary>
    public static void WriteHeader(Span<byte> header, uint epoch)
    {
        Magic.CopyTo(header);
        BinaryPrimitives.WriteUInt32LittleEndian(header[8..], epoch);
        BinaryPrimitives.WriteUInt32LittleEndian(header[12..], Crc32.HashToUInt32(header[..12]));
    }

    /// <summary>False when <paramref name="header"/> is short, of another format, or fails its checksum.</summary>
    public static bool TryReadHeader(ReadOnlySpan<byte> header, out uint epoch)
    {
        epoch = 0;
        if (header.Length < HeaderLength || !header[..8].SequenceEqual(Magic)
            || BinaryPrimitives.ReadUInt32LittleEndian(header[12..]) != Crc32.HashToUInt32(header[..12]))
        {
            return false;
        }

        epoch = BinaryPrimitives.ReadUInt32LittleEndian(header[8..]);
        return true;
    }

    /// <summary>As <see cref="DigestLogFormat.IsUnwritten"/>: fewer bytes than a header, or a header of zeros, is a log never synced.</summary>
    public static bool IsUnwritten(ReadOnlySpan<byte> firstBytes) =>
        firstBytes.Length < HeaderLength || !firstBytes[..HeaderLength].ContainsAnyExcept((byte)0);

    /// <summary>
    /// Reads a whole file's <paramref name="content"/>: its epoch, its records in order up to the first that is torn or
    /// of an earlier epoch, and where they end. A missing, short or all-zero header reads as epoch 0 and no records,
    /// ending at 0. False when the header has non-zero bytes and fails its checksum (damage).
    /// </summary>
    public static bool TryReadFile(ReadOnlySpan<byte> content, out uint epoch, out int end, List<ControlRecord> records)
    {
        epoch = 0;
        end = 0;
        if (IsUnwritten(content))
        {
            return true;
        }

        if (!TryReadHeader(content, out epoch))
        {
            return false;
        }

        end = HeaderLength;
        while (TryReadRecord(content[end..], epoch, out ControlRecord record, out int length))
        {
            records.Add(record);
            end += length;
        }

        return true;
    }

    /// <summary>Writes <paramref name="record"/> for <paramref name="epoch"/> into <paramref name="destination"/>; returns its length.</summary>
    public static int WriteRecord(Span<byte> destination, uint epoch, ControlRecord record)
    {
        if (record.Action == ControlAction.Items)
        {
            return WriteItems(destination, epoch, record.Name, record.Digests);
        }

        int nameLength = record.Name.Length;
        BinaryPrimitives.WriteUInt16LittleEndian(destination, (ushort)nameLength);
        destination[2] = (byte)record.Action;
        Encoding.ASCII.GetBytes(record.Name, destination[3..]);
        int length = 3 + nameLength;
        if (record.Action == ControlAction.Create)
        {
            DigestLogFormat.WriteHeader(destination[length..], record.Parameters);
            length += DigestLogFormat.HeaderLength;
        }

        BinaryPrimitives.WriteUInt32LittleEndian(destination[length..], Checksum(epoch, destination[..length]));
        return length + sizeof(uint);
    }

    /// <summary>
    /// Writes an items record of <paramref name="name"/> for <paramref name="epoch"/> (1 to <see cref="MaxItemsPerRecord"/>
    /// digests) into <paramref name="destination"/>; returns its length. Allocates nothing: adds write it.
    /// </summary>
    public static int WriteItems(Span<byte> destination, uint epoch, string name, ReadOnlySpan<ulong> digests)
    {
        if (digests.IsEmpty || digests.Length > MaxItemsPerRecord)
        {
            throw new ArgumentOutOfRangeException(nameof(digests), digests.Length, $"an items record holds 1 to {MaxItemsPerRecord} digests");
        }

        BinaryPrimitives.WriteUInt16LittleEndian(destination, (ushort)name.Length);
        destination[2] = (byte)ControlAction.Items;
        Encoding.ASCII.GetBytes(name, destination[3..]);
        int length = 3 + name.Length;
        BinaryPrimitives.WriteUInt16LittleEndian(destination[length..], (ushort)digests.Length);
        length += sizeof(ushort);
        foreach (ulong digest in digests)
        {
            BinaryPrimitives.WriteUInt64LittleEndian(destination[length..], digest);
            length += sizeof(ulong);
        }

        BinaryPrimitives.WriteUInt32LittleEndian(destination[length..], Checksum(epoch, destination[..length]));
        return length + sizeof(uint);
    }

    /// <summary>
    /// Reads the record at the start of <paramref name="source"/>; false at the end of the records: too few bytes, a
    /// field out of range, or a checksum that fails (a torn append, or a record of an earlier epoch).
    /// </summary>
    public static bool TryReadRecord(ReadOnlySpan<byte> source, uint epoch, out ControlRecord record, out int length)
    {
        record = default;
        length = 0;
        if (source.Length < 3)
        {
            return false;
        }

        int nameLength = BinaryPrimitives.ReadUInt16LittleEndian(source);
        var action = (ControlAction)source[2];
        if (nameLength is 0 or > KeyNames.MaxNameChars || action is not (ControlAction.Create or ControlAction.Drop or ControlAction.Items))
        {
            return false;
        }

        int count = 0;
        if (action == ControlAction.Items)
        {
            if (source.Length < 3 + nameLength + sizeof(ushort)
                || (count = BinaryPrimitives.ReadUInt16LittleEndian(source[(3 + nameLength)..])) is 0 or > MaxItemsPerRecord)
            {
                return false;
            }
        }

        int body = 3 + nameLength + action switch
        {
            ControlAction.Create => DigestLogFormat.HeaderLength,
            ControlAction.Items => sizeof(ushort) + (count * sizeof(ulong)),
            _ => 0,
        };
        if (source.Length < body + sizeof(uint) || BinaryPrimitives.ReadUInt32LittleEndian(source[body..]) != Checksum(epoch, source[..body]))
        {
            return false;
        }

        string name = Encoding.ASCII.GetString(source.Slice(3, nameLength));
        FilterParameters parameters = default;
        if (!KeyNames.IsFilterName(name)
            || (action == ControlAction.Create && !DigestLogFormat.TryReadHeader(source[(3 + nameLength)..body], out parameters)))
        {
            return false;
        }

        ulong[]? digests = null;
        if (action == ControlAction.Items)
        {
            digests = new ulong[count];
            for (int i = 0; i < count; i++)
            {
                digests[i] = BinaryPrimitives.ReadUInt64LittleEndian(source[(3 + nameLength + sizeof(ushort) + (i * sizeof(ulong)))..]);
            }
        }

        record = new ControlRecord(action, name, parameters, digests);
        length = body + sizeof(uint);
        return true;
    }

    private static uint Checksum(uint epoch, ReadOnlySpan<byte> record)
    {
        Span<byte> bytes = stackalloc byte[sizeof(uint) + MaxRecordLength];
        BinaryPrimitives.WriteUInt32LittleEndian(bytes, epoch);
        record.CopyTo(bytes[sizeof(uint)..]);
        return Crc32.HashToUInt32(bytes[..(sizeof(uint) + record.Length)]);
    }
}
