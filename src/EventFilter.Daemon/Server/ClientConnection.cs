using System.Net.Sockets;
using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Protocol;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// One client: reads into a buffer, runs every whole command in it, and sends all their replies with one write, so a
/// pipelined batch is answered in order at one send per read. A protocol error is answered, then only this
/// connection is closed. The buffer grows only as far as one command needs (bounded by <see cref="RespLimits"/>).
/// </summary>
internal sealed class ClientConnection(Socket socket, CommandContext context, RespLimits limits, ILogger logger)
{
    private byte[] _buffer = new byte[16 * 1024];
    private int _filled;

    public async Task RunAsync(CancellationToken stopping)
    {
        using (socket)
        {
            try
            {
                while (!stopping.IsCancellationRequested)
                {
                    if (_filled == _buffer.Length)
                    {
                        Array.Resize(ref _buffer, Math.Min(_buffer.Length * 2, limits.MaxCommandBytes));
                    }

                    int read = await socket.ReceiveAsync(_buffer.AsMemory(_filled), SocketFlags.None, stopping);
                    if (read == 0)
                    {
                        return;
                    }

                    _filled += read;
                    bool keepOpen = RunCommands();

                    // Group commit: one log write (and with --log-sync always one fsync) per filter for the whole batch, before any reply.
                    if (!TryCommitAdded())
                    {
                        return;
                    }

                    if (context.Reply.Length > 0)
                    {
                        await SendAsync(stopping);
                    }

                    if (!keepOpen)
                    {
                        return;
                    }
                }
            }
            catch (Exception e) when (e is SocketException or OperationCanceledException or ObjectDisposedException)
            {
                // The client went away or the server is stopping: nothing to answer.
            }
            catch (Exception e)
            {
                // A bug must cost this connection only, never the daemon or the other clients.
                logger.LogError(e, "A connection failed unexpectedly; it is closed");
            }
        }
    }

    /// <summary>Runs every whole command in the buffer; false when the connection must close after the replies.</summary>
    private bool RunCommands()
    {
        int consumed = 0;
        bool keepOpen = true;
        while (keepOpen)
        {
            ParseResult result = RespParser.TryParse(_buffer, _filled, limits, context.Arguments, consumed, out int used, out string? error);
            if (result == ParseResult.Incomplete)
            {
                keepOpen = _filled - consumed < limits.MaxCommandBytes || Refuse($"ERR Protocol error: command larger than {limits.MaxCommandBytes} bytes");
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
                RunOne();
                keepOpen = !context.CloseAfterReply;
            }
        }

        // Keep the unparsed tail at the front for the next read.
        _buffer.AsSpan(consumed, _filled - consumed).CopyTo(_buffer);
        _filled -= consumed;
        return keepOpen;
    }

    private void RunOne()
    {
        try
        {
            CommandTable.Execute(context);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidDataException)
        {
            // A storage failure answers this command; the daemon and the other clients carry on.
            logger.LogError(e, "A command failed on storage");
            context.Reply.Error("ERR storage failure: " + e.Message);
        }
    }

    /// <summary>A failed log write or fsync acknowledges nothing: the connection closes without the batch's replies.</summary>
    private bool TryCommitAdded()
    {
        try
        {
            context.CommitAdded();
            return true;
        }
        catch (IOException e)
        {
            logger.LogError(e, "Writing or syncing a digest log failed; the client's batch is not acknowledged");
            return false;
        }
    }

    private bool Refuse(string error)
    {
        context.Reply.Error(error);
        return false;
    }

    private async Task SendAsync(CancellationToken stopping)
    {
        ReadOnlyMemory<byte> pending = context.Reply.Written;
        while (!pending.IsEmpty)
        {
            int sent = await socket.SendAsync(pending, SocketFlags.None, stopping);
            pending = pending[sent..];
        }

        context.Reply.Clear();
    }
}
