using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// A connection's MULTI: the commands queued since MULTI, copied out of the read buffer (which the next read reuses)
/// into one growing byte array, and whether one was refused while queuing (then EXEC aborts, as in Redis). EXEC runs
/// them in order, each as it would have run alone (<see cref="TransactionCommands"/>). One per connection, reused.
/// </summary>
internal sealed class ClientTransaction
{
    /// <summary>Bytes of arguments queued at most; beyond, a command is refused and EXEC aborts (Redis bounds it by its client buffers).</summary>
    public const int MaxQueuedBytes = 64 << 20;

    private const int InitialBytes = 1024;
    private const int InitialCount = 16;
    private byte[] _bytes = new byte[InitialBytes];
    private int _used;
    private (RespCommand Command, int FirstArgument, int Count)[] _commands = new (RespCommand, int, int)[InitialCount];
    private int _count;
    private (int Offset, int Length)[] _arguments = new (int, int)[InitialCount];
    private int _argumentCount;
    private bool _refused;

    /// <summary>True between MULTI and EXEC or DISCARD: commands are queued, not run.</summary>
    public bool Open { get; private set; }

    /// <summary>Commands queued (CLIENT LIST's multi).</summary>
    public int Count => _count;

    /// <summary>Bytes of arguments queued (CLIENT LIST's multi-mem).</summary>
    public int QueuedBytes => _used;

    /// <summary>Bytes the queue's arrays hold, used or not (part of CLIENT LIST's tot-mem).</summary>
    public long AllocatedBytes => _bytes.Length + (_commands.Length * 12L) + (_arguments.Length * 8L);

    /// <summary>MULTI: queuing starts.</summary>
    public void Begin()
    {
        Open = true;
        _refused = false;
    }

    /// <summary>Whether <paramref name="command"/> is queued rather than run now: all but MULTI, EXEC, DISCARD, WATCH and QUIT, as in Redis.</summary>
    public bool Queues(RespCommand command) =>
        Open && command is not (RespCommand.Multi or RespCommand.Exec or RespCommand.Discard or RespCommand.Watch or RespCommand.Quit);

    /// <summary>A command was refused (unknown, wrong count) while queuing: EXEC will abort.</summary>
    public void Refused() => _refused |= Open;

    /// <summary>Queues the parsed <paramref name="arguments"/> as <paramref name="command"/>; false (and EXEC will abort) past the bound.</summary>
    public bool TryQueue(RespCommand command, CommandArguments arguments)
    {
        long bytes = 0;
        for (int i = 0; i < arguments.Count; i++)
        {
            bytes += arguments[i].Length;
        }

        if (_used + bytes > MaxQueuedBytes)
        {
            _refused = true;
            return false;
        }

        Grow(ref _bytes, _used + (int)bytes);
        Grow(ref _arguments, _argumentCount + arguments.Count);
        Grow(ref _commands, _count + 1);
        _commands[_count++] = (command, _argumentCount, arguments.Count);
        for (int i = 0; i < arguments.Count; i++)
        {
            ReadOnlySpan<byte> argument = arguments[i];
            argument.CopyTo(_bytes.AsSpan(_used));
            _arguments[_argumentCount++] = (_used, argument.Length);
            _used += argument.Length;
        }

        return true;
    }

    /// <summary>
    /// EXEC: the array of every queued command's reply, each run through <paramref name="run"/> with its arguments in
    /// <paramref name="context"/>; or EXECABORT when one was refused while queuing, and then none runs.
    /// </summary>
    public void Execute(CommandContext context, Action<CommandContext, RespCommand> run)
    {
        if (_refused)
        {
            Discard();
            context.Reply.Error("EXECABORT Transaction discarded because of previous errors.");
            return;
        }

        Open = false;
        context.Reply.ArrayHeader(_count);
        for (int c = 0; c < _count; c++)
        {
            (RespCommand command, int first, int count) = _commands[c];
            context.Arguments.Reset(_bytes);
            for (int a = first; a < first + count; a++)
            {
                context.Arguments.Add(_arguments[a].Offset, _arguments[a].Length);
            }

            run(context, command);
        }

        Discard();
    }

    /// <summary>DISCARD, or the end of EXEC: nothing is queued, and the arrays a large transaction grew are given up.</summary>
    public void Discard()
    {
        Open = false;
        _refused = false;
        (_used, _count, _argumentCount) = (0, 0, 0);
        _bytes = LargeBuffers.Shrink(_bytes, InitialBytes);
        _commands = LargeBuffers.Shrink(_commands, InitialCount);
        _arguments = LargeBuffers.Shrink(_arguments, InitialCount);
    }

    private static void Grow<T>(ref T[] array, int needed)
    {
        if (array.Length < needed)
        {
            Array.Resize(ref array, Math.Max(needed, array.Length * 2));
        }
    }
}
