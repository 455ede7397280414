using System.Buffers;
using System.Buffers.Text;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// BF.SCANDUMP key iterator and BF.LOADCHUNK key iterator data, with RedisBloom's iterator contract: SCANDUMP from 0,
/// feeding each answered iterator back, until it answers 0 with an empty chunk; LOADCHUNK each (iterator, data) pair
/// in that order. The chunks are eventfilterd's own (<see cref="DumpChunkFormat"/>, docs/file-format.md "Dump
/// chunks"), and the iterator carries the dump's item count, so SCANDUMP keeps no state between calls.
/// </summary>
internal static class DumpCommands
{
    /// <summary>BF.SCANDUMP key iterator: the header chunk for 0, then each chunk of items, then (0, "").</summary>
    public static void ScanDump(CommandContext context)
    {
        if (!TryIterator(context, out long iterator))
        {
            return;
        }

        if (context.Store.Find(context.Arguments[1]) is not { } filter)
        {
            context.Reply.Error("ERR not found");
            return;
        }

        if (iterator == 0)
        {
            DumpHeader(context, filter);
            return;
        }

        if (!DumpChunkFormat.TryReadIterator(iterator, out long items, out long chunk))
        {
            context.Reply.Error($"ERR invalid iterator {iterator}: pass 0, or the iterator the last BF.SCANDUMP answered");
            return;
        }

        long first = chunk * DumpChunkFormat.DefaultChunkItems;
        if (first >= items)
        {
            context.Reply.ArrayHeader(2);
            context.Reply.Integer(0);
            context.Reply.Bulk(ReadOnlySpan<byte>.Empty);
            return;
        }

        DumpItems(context, filter, items, chunk, first);
    }

    /// <summary>BF.LOADCHUNK key iterator data: the header chunk starts a restore into a key with no filter; the last chunk makes the filter exist.</summary>
    public static void LoadChunk(CommandContext context)
    {
        if (!TryIterator(context, out long iterator))
        {
            return;
        }

        ReadOnlySpan<byte> key = context.Arguments[1];
        ReadOnlySpan<byte> data = context.Arguments[3];
        string? problem;
        if (!DumpChunkFormat.TryReadKind(data, out DumpChunkKind kind, out problem))
        {
            problem = $"received bad data: {problem}";
        }
        else if (kind == DumpChunkKind.Header)
        {
            problem = LoadHeader(context, iterator, key, data);
        }
        else
        {
            problem = context.Store.LoadItems(key, iterator, DumpChunkFormat.ReadItems(data), context.Client.Id);
        }

        if (problem is null)
        {
            context.Reply.Ok();
        }
        else
        {
            context.Reply.Error($"ERR {problem}");
        }
    }

    private static void DumpHeader(CommandContext context, NamedFilter filter)
    {
        if (filter.DumpStart() is not var (items, last))
        {
            context.Reply.Error("ERR not found");
            return;
        }

        if (items > DumpChunkFormat.MaxItems)
        {
            context.Reply.Error($"ERR the filter holds {items} items; a dump holds at most {DumpChunkFormat.MaxItems}");
            return;
        }

        var header = new DumpHeader(DumpChunkFormat.DumpIdOf(filter.Parameters, items, last), filter.Parameters, items, DumpChunkFormat.DefaultChunkItems);
        Span<byte> chunk = stackalloc byte[DumpChunkFormat.HeaderChunkLength];
        DumpChunkFormat.WriteHeader(chunk, header);
        context.Reply.ArrayHeader(2);
        context.Reply.Integer(header.Iterator);
        context.Reply.Bulk(chunk);
    }

    private static void DumpItems(CommandContext context, NamedFilter filter, long items, long chunk, long first)
    {
        int count = (int)Math.Min(DumpChunkFormat.DefaultChunkItems, items - first);
        byte[] buffer = ArrayPool<byte>.Shared.Rent(DumpChunkFormat.ItemsChunkLength(count));
        try
        {
            Span<ulong> previous = stackalloc ulong[1];
            Span<ulong> last = stackalloc ulong[1];
            // The dump id again, from the iterator's item count: a filter dropped and made again since the header
            // chunk gives chunks of another id, which the restore refuses.
            if (!filter.ReadItems(first, DumpChunkFormat.DigestsOf(buffer, count)) || !filter.ReadItems(items - 1, last)
                || (first > 0 && !filter.ReadItems(first - 1, previous)))
            {
                context.Reply.Error($"ERR invalid iterator: the filter holds fewer than the {items} items of the dump it belongs to (was it dropped and made again?)");
                return;
            }

            ulong dumpId = DumpChunkFormat.DumpIdOf(filter.Parameters, items, last[0]);
            int length = DumpChunkFormat.SealItems(buffer, dumpId, chunk, first, count, first > 0 ? previous[0] : 0);
            context.Reply.ArrayHeader(2);
            context.Reply.Integer(DumpChunkFormat.IteratorOf(items, chunk + 1));
            context.Reply.Bulk(buffer.AsSpan(0, length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    /// <summary>The iterator argument, as RedisBloom parses it: an integer, or the error it answers.</summary>
    private static bool TryIterator(CommandContext context, out long iterator)
    {
        ReadOnlySpan<byte> text = context.Arguments[2];
        if (Utf8Parser.TryParse(text, out iterator, out int used) && used == text.Length && iterator >= 0)
        {
            return true;
        }

        context.Reply.Error("ERR Second argument must be numeric");
        return false;
    }

    private static string? LoadHeader(CommandContext context, long iterator, ReadOnlySpan<byte> key, ReadOnlySpan<byte> data)
    {
        if (!DumpChunkFormat.TryReadHeader(data, out DumpHeader header, out string? problem))
        {
            return $"received bad data: {problem}";
        }

        if (iterator != header.Iterator)
        {
            return $"received bad data: iterator {iterator} does not go with this chunk, whose iterator is {header.Iterator}";
        }

        if (RestoreSession.CheckFits(header) is { } misfit)
        {
            return $"received bad data: {misfit}";
        }

        if (BloomArguments.CheckCreate(header.Parameters) is { } invalid)
        {
            return invalid["ERR ".Length..];
        }

        try
        {
            return context.Store.BeginRestore(key, header, context.Client.Id);
        }
        catch (IOException failure) when (failure is not DescriptorLimitException)
        {
            // The restore's files could not be made (a full disk): refused with the reason, as any bad request.
            return $"cannot start the restore: {failure.Message}";
        }
    }
}
