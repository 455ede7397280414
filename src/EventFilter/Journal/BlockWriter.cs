using EventFilter.Blocked;
using EventFilter.Format;
using EventFilter.Storage;

namespace EventFilter.Journal;

/// <summary>
/// Writes chosen 4 KiB blocks of the private mapping into the main file with positioned writes, then fsyncs it.
/// A block is copied while adds go on, so each copied line's checksum is checked and a line caught half-way through
/// an add is copied again once no add is inside it (without taking its stripe, so a fold at low priority never makes
/// an add wait): the file never receives a torn line from us.
/// Copy and write happen under one gate, so a later copy of a block can never be overtaken on disk by an earlier one.
/// </summary>
internal sealed unsafe class BlockWriter
{
    public const int BlockSize = JournalWriter.BlockSize;
    private const int LinesPerBlock = BlockSize / FilterGeometry.LineSize;
    private const int BlocksPerWrite = 64;

    private readonly MappedFile _file;
    private readonly BloomLines _lines;
    private readonly Lock _gate = new();
    private readonly byte[] _buffer = new byte[BlocksPerWrite * BlockSize];

    public BlockWriter(MappedFile file, BloomLines lines)
    {
        _file = file;
        _lines = lines;
        BlockCount = (file.Length + BlockSize - 1) / BlockSize;
    }

    public long BlockCount { get; }

    /// <summary>Told the bytes written so far after each run of blocks; crash tests use it to stop a fold half-way.</summary>
    public Action<long>? RunWritten { get; set; }

    /// <summary>The block that holds data line <paramref name="line"/> (the header is line -1, in block 0).</summary>
    public static long BlockOf(long line) => (line + 1) / LinesPerBlock;

    /// <summary>Takes every line out of <paramref name="lines"/> and marks the block that holds it in <paramref name="blocks"/>.</summary>
    public static void TakeBlocksOf(AtomicBitmap lines, AtomicBitmap blocks)
    {
        var marker = new BlockMarker(blocks);
        lines.Take(ref marker);
    }

    /// <summary>Writes every block in <paramref name="blocks"/> (taking them out of it) and fsyncs; returns the bytes written.</summary>
    public long WriteAndSync(AtomicBitmap blocks)
    {
        var runs = new RunCollector(this);
        blocks.Take(ref runs);
        runs.Finish();
        if (runs.Written > 0)
        {
            _file.Sync();
        }

        return runs.Written;
    }

    private long WriteRun(long firstBlock, int blockCount)
    {
        long offset = firstBlock * BlockSize;
        int length = (int)Math.Min((long)blockCount * BlockSize, _file.Length - offset);
        lock (_gate)
        {
            Span<byte> copy = _buffer.AsSpan(0, length);
            _file.Span(offset, length).CopyTo(copy);
            RecopyTornLines(copy, offset);
            _file.WriteBack(offset, copy);
        }

        return length;
    }

    private void RecopyTornLines(Span<byte> copy, long offset)
    {
        for (int at = 0; at < copy.Length; at += FilterGeometry.LineSize)
        {
            long fileOffset = offset + at;
            if (fileOffset == 0)
            {
                continue; // the header, which never changes after create
            }

            Span<byte> line = copy.Slice(at, FilterGeometry.LineSize);
            if (LineChecksum.Compute(line) != LineChecksum.ReadStored(line))
            {
                _lines.CopyConsistentLine((uint)((fileOffset / FilterGeometry.LineSize) - 1), line);
            }
        }
    }

    /// <summary>Turns changed lines into the blocks that hold them.</summary>
    private readonly struct BlockMarker(AtomicBitmap blocks) : AtomicBitmap.IMemberVisitor
    {
        public void Visit(long line) => blocks.Add(BlockOf(line));
    }

    /// <summary>Groups ascending block numbers into runs of up to <see cref="BlocksPerWrite"/> consecutive blocks.</summary>
    private struct RunCollector(BlockWriter writer) : AtomicBitmap.IMemberVisitor
    {
        private long _first = -1;
        private int _count;

        public long Written { get; private set; }

        public void Visit(long block)
        {
            if (_count > 0 && block == _first + _count && _count < BlocksPerWrite)
            {
                _count++;
                return;
            }

            Finish();
            _first = block;
            _count = 1;
        }

        public void Finish()
        {
            if (_count > 0)
            {
                Written += writer.WriteRun(_first, _count);
                _count = 0;
                writer.RunWritten?.Invoke(Written);
            }
        }
    }
}
