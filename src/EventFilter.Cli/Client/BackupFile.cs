using System.Buffers.Binary;
using EventFilter.Daemon.Formats;

namespace EventFilter.Cli.Client;

/// <summary>
/// The file `eventfilter backup` writes and `restore` reads (docs/file-format.md, "Backup file"): "EFBACKUP", the
/// version (int32) and 4 zero bytes, then each (iterator, chunk) pair BF.SCANDUMP answered as the iterator (int64), the
/// chunk's length (int32) and the chunk, then an end mark (iterator 0, length 0), all little-endian. The chunks carry
/// their own checksums (<see cref="DumpChunkFormat"/>); the end mark tells a whole file from one cut short.
/// </summary>
internal static class BackupFile
{
    private const int Version = 1;
    private const int HeaderLength = 16;
    private const int RecordPrefix = 12;

    private static ReadOnlySpan<byte> Magic => "EFBACKUP"u8;

    /// <summary>
    /// Writes the pairs <paramref name="chunks"/> yields to a temporary file beside <paramref name="path"/>, fsyncs it
    /// and renames it over <paramref name="path"/>: a failed or interrupted backup leaves any earlier file as it was.
    /// </summary>
    public static async Task WriteAsync(string path, IAsyncEnumerable<(long Iterator, byte[] Chunk)> chunks)
    {
        string temporary = path + ".partial";
        try
        {
            await using (var file = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 16, useAsync: true))
            {
                byte[] header = new byte[HeaderLength];
                Magic.CopyTo(header);
                BinaryPrimitives.WriteInt32LittleEndian(header.AsSpan(8), Version);
                await file.WriteAsync(header).ConfigureAwait(false);
                await foreach ((long iterator, byte[] chunk) in chunks.ConfigureAwait(false))
                {
                    await file.WriteAsync(Prefix(iterator, chunk.Length)).ConfigureAwait(false);
                    await file.WriteAsync(chunk).ConfigureAwait(false);
                }

                await file.WriteAsync(Prefix(0, 0)).ConfigureAwait(false);
                await file.FlushAsync().ConfigureAwait(false);
                file.Flush(flushToDisk: true);
            }

            File.Move(temporary, path, overwrite: true);
        }
        catch
        {
            if (File.Exists(temporary))
            {
                File.Delete(temporary);
            }

            throw;
        }
    }

    /// <summary>
    /// Reads the pairs of the backup at <paramref name="path"/> one at a time, checking the file's frame and each
    /// chunk's own checksum. `restore` reads it through once before sending anything, so a damaged file restores nothing.
    /// </summary>
    /// <exception cref="IOException">The file is missing, not a backup, of another version, cut short or damaged; the message says which.</exception>
    public static IEnumerable<(long Iterator, byte[] Chunk)> Read(string path)
    {
        using var file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16);
        var reader = new BinaryReader(file);
        byte[] header = reader.ReadBytes(HeaderLength);
        if (header.Length < HeaderLength || !header.AsSpan(0, 8).SequenceEqual(Magic))
        {
            throw new IOException($"'{path}' is not an eventfilter backup (it does not start with EFBACKUP).");
        }

        int version = BinaryPrimitives.ReadInt32LittleEndian(header.AsSpan(8));
        if (version != Version)
        {
            throw new IOException($"'{path}' is a backup of version {version}; this tool reads version {Version}.");
        }

        for (int chunks = 0; ; chunks++)
        {
            byte[] prefix = reader.ReadBytes(RecordPrefix);
            if (prefix.Length < RecordPrefix)
            {
                throw new IOException($"'{path}' is cut short after {chunks} chunks: its end mark is missing (an interrupted copy?).");
            }

            long iterator = BinaryPrimitives.ReadInt64LittleEndian(prefix);
            int length = BinaryPrimitives.ReadInt32LittleEndian(prefix.AsSpan(8));
            if (iterator == 0 && length == 0)
            {
                if (file.Position != file.Length)
                {
                    throw new IOException($"'{path}' has {file.Length - file.Position} bytes after its end mark (damaged).");
                }

                yield break;
            }

            byte[] chunk = length is > 0 and <= DumpChunkFormat.HeaderChunkLength + (DumpChunkFormat.MaxChunkItems * sizeof(ulong)) + DumpChunkFormat.ItemsPrefixLength
                ? reader.ReadBytes(length)
                : throw new IOException($"'{path}' is damaged: chunk {chunks + 1} claims {length} bytes.");
            if (chunk.Length < length)
            {
                throw new IOException($"'{path}' is cut short in chunk {chunks + 1}.");
            }

            if (!DumpChunkFormat.TryReadKind(chunk, out DumpChunkKind kind, out string? problem) || (kind == DumpChunkKind.Header) != (chunks == 0))
            {
                throw new IOException($"'{path}' is damaged: chunk {chunks + 1}: {problem ?? "it is out of place (the header chunk comes first, and only there)"}.");
            }

            yield return (iterator, chunk);
        }
    }

    private static byte[] Prefix(long iterator, int length)
    {
        byte[] prefix = new byte[RecordPrefix];
        BinaryPrimitives.WriteInt64LittleEndian(prefix, iterator);
        BinaryPrimitives.WriteInt32LittleEndian(prefix.AsSpan(8), length);
        return prefix;
    }
}
