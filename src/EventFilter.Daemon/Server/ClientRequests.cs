using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Protocol;
using EventFilter.Daemon.Telemetry;

namespace EventFilter.Daemon.Server;

/// <summary>
/// A connection's requests: what it has read (<see cref="ReadBuffer"/>), how far a partial command is parsed, and running
/// every whole command read so far, their replies going to the context's reply buffer. <see cref="ClientConnection"/>
/// does the socket's side.
/// </summary>
internal sealed class ClientRequests(CommandContext context, RespLimits limits, DaemonMetrics metrics)
{
    private readonly ParseProgress _progress = new();
    private readonly ReadBuffer _read = new(limits.MaxCommandBytes);

    /// <summary>Nothing read and unparsed, no command half-read: the connection can rest (<see cref="Rest"/>).</summary>
    public bool Idle => _read.Filled == 0 && !_progress.Started;

    /// <summary>Room for the next read (<see cref="ReadBuffer.Space"/>).</summary>
    public Memory<byte> Space() => _read.Space();

    /// <summary>
    /// <paramref name="bytes"/> more were read into <see cref="Space"/>: runs every whole command; false when the
    /// connection must close after the replies.
    /// </summary>
    public bool Run(int bytes)
    {
        _read.Received(bytes);
        return RunCommands();
    }

    /// <summary>Between requests: gives back a borrowed buffer unless more is likely waiting (<see cref="ReadBuffer.Rest"/>).</summary>
    public void Rest(bool moreWaiting) => _read.Rest(moreWaiting);

    /// <summary>After a read's replies: the buffers a large request grew go back to their first sizes (<see cref="LargeBuffers"/>).</summary>
    public void Trim()
    {
        _read.Shrink();
        if (_progress.Started)
        {
            // The arguments of the command that waits for its end are kept; it starts at the front of the buffer.
            context.Arguments.Rebase(_read.Bytes, 0);
        }
        else
        {
            context.TrimScratch();
        }
    }

    /// <summary>The connection is over: its buffers go back (large ones counted as released, for <see cref="MemoryTrim"/>).</summary>
    public void Release()
    {
        _read.Release();
        context.TrimScratch();
    }

    /// <summary>Runs every whole command in the buffer; false when the connection must close after the replies.</summary>
    private bool RunCommands()
    {
        byte[] buffer = _read.Bytes;
        int filled = _read.Filled;
        int consumed = 0, commands = 0, added = 0, looked = 0;
        bool keepOpen = true;
        while (keepOpen)
        {
            ParseResult result = RespParser.TryParse(buffer, filled, limits, context.Arguments, consumed, _progress, out int used, out string? error);
            if (result == ParseResult.Incomplete)
            {
                keepOpen = filled - consumed < limits.MaxCommandBytes || Refuse($"ERR Protocol error: command larger than {limits.MaxCommandBytes} bytes");
                break;
            }

            if (result == ParseResult.ProtocolError)
            {
                keepOpen = Refuse(error!);
                break;
            }

            consumed += used;
            if (context.Arguments.Count > 0)
            {
                RespCommand command = CommandTable.Identify(context.Arguments[0]);
                (int adds, int checks) = CommandItems.Of(command, context.Arguments);
                commands++;
                added += adds;
                looked += checks;
                RunOne(command);
                keepOpen = !context.CloseAfterReply;
            }
        }

        if (commands > 0)
        {
            metrics.Ran(commands, added, looked);
        }

        // Keep the unparsed tail at the front for the next read; a partial command's parse resumes there (_progress).
        _read.Consumed(consumed);
        return keepOpen;
    }

    private void RunOne(RespCommand command)
    {
        // Before anything runs: an unauthenticated client learns nothing, not even which commands exist.
        if (!context.Authenticated && !ServerCommands.AllowedBeforeAuth(command))
        {
            context.Reply.Error("NOAUTH Authentication required.");
            return;
        }

        CommandTable.Run(context, command);
    }

    private bool Refuse(string error)
    {
        context.Reply.Error(error);
        return false;
    }
}
