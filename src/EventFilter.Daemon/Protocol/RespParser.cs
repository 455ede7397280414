using System.Buffers.Text;

namespace EventFilter.Daemon.Protocol;

/// <summary>
/// A strict RESP2 command parser. A command is one array of bulk strings (what redis-cli and every client library
/// send), or a line that does not start with '*' (<see cref="InlineCommand"/>); anything else, including a nested
/// array, is a protocol error, so nesting is bounded at depth one. Lengths
/// are checked against <see cref="RespLimits"/> before any byte of the payload is awaited. See docs/daemon.md, "Protocol".
/// </summary>
internal static class RespParser
{
    /// <summary>Parses the command at <paramref name="buffer"/>[<paramref name="start"/>..<paramref name="length"/>) from its first byte.</summary>
    public static ParseResult TryParse(byte[] buffer, int length, RespLimits limits, CommandArguments arguments, int start, out int consumed, out string? error) =>
        TryParse(buffer, length, limits, arguments, start, new ParseProgress(), out consumed, out error);

    /// <summary>
    /// Parses the command at <paramref name="buffer"/>[<paramref name="start"/>..<paramref name="length"/>), resuming
    /// where <paramref name="progress"/> says the last call stopped in it (with <paramref name="arguments"/> as that call
    /// left them); on <see cref="ParseResult.Incomplete"/>, records where this one stopped.
    /// </summary>
    public static ParseResult TryParse(byte[] buffer, int length, RespLimits limits, CommandArguments arguments, int start, ParseProgress progress, out int consumed, out string? error)
    {
        consumed = 0;
        error = null;
        var input = new ReadOnlySpan<byte>(buffer, start, length - start);
        long count;
        int position;
        if (progress.Started)
        {
            arguments.Rebase(buffer, start);
            (count, position) = (progress.Count, progress.Position);
        }
        else if (!input.IsEmpty && input[0] != (byte)'*')
        {
            return InlineCommand.TryParse(buffer, length, limits, arguments, start, out consumed, out error);
        }
        else
        {
            arguments.Reset(buffer, start);
            ParseResult header = ReadHeader(input, limits, out count, out position, out error);
            if (header != ParseResult.Command)
            {
                return header;
            }
        }

        for (long i = arguments.Count; i < count; i++)
        {
            if (position >= input.Length)
            {
                progress.Pause(count, position);
                return ParseResult.Incomplete;
            }

            if (input[position] != (byte)'$')
            {
                error = $"ERR Protocol error: expected '$', got '{Printable(input[position])}'";
                return Failed(progress);
            }

            int argumentStart = position;
            ParseResult bulk = ReadLength(input, ref position, out long bulkLength);
            if (bulk == ParseResult.Incomplete)
            {
                progress.Pause(count, argumentStart);
                return bulk;
            }

            if (bulk == ParseResult.ProtocolError || bulkLength < 0 || bulkLength > limits.MaxBulkLength)
            {
                error = "ERR Protocol error: invalid bulk length";
                return Failed(progress);
            }

            if (position + bulkLength + 2 > limits.MaxCommandBytes)
            {
                error = $"ERR Protocol error: command larger than {limits.MaxCommandBytes} bytes";
                return Failed(progress);
            }

            if (input.Length - position < bulkLength + 2)
            {
                // Resume at this argument's header: it is re-read (24 bytes at most), its payload is not scanned.
                progress.Pause(count, argumentStart);
                return ParseResult.Incomplete;
            }

            if (input[position + (int)bulkLength] != (byte)'\r' || input[position + (int)bulkLength + 1] != (byte)'\n')
            {
                error = "ERR Protocol error: bulk string not followed by CRLF";
                return Failed(progress);
            }

            arguments.Add(position, (int)bulkLength);
            position += (int)bulkLength + 2;
        }

        // "*0" and "*-1" are empty commands; the caller skips them, as Redis does.
        progress.Clear();
        consumed = position;
        return ParseResult.Command;
    }

    /// <summary>The command's "*&lt;count&gt;\r\n" header, checked against the limits.</summary>
    private static ParseResult ReadHeader(ReadOnlySpan<byte> input, RespLimits limits, out long count, out int position, out string? error)
    {
        count = 0;
        position = 0;
        error = null;
        if (input.IsEmpty)
        {
            return ParseResult.Incomplete;
        }

        ParseResult header = ReadLength(input, ref position, out count);
        if (header != ParseResult.Command)
        {
            error = header == ParseResult.ProtocolError ? "ERR Protocol error: invalid multibulk length" : null;
            return header;
        }

        if (count > limits.MaxArrayLength || count < -1)
        {
            error = "ERR Protocol error: invalid multibulk length";
            return ParseResult.ProtocolError;
        }

        return ParseResult.Command;
    }

    private static ParseResult Failed(ParseProgress progress)
    {
        progress.Clear();
        return ParseResult.ProtocolError;
    }

    /// <summary>Reads "&lt;type&gt;&lt;decimal&gt;\r\n" at <paramref name="position"/>, moving past it.</summary>
    private static ParseResult ReadLength(ReadOnlySpan<byte> input, ref int position, out long value)
    {
        value = 0;
        ReadOnlySpan<byte> rest = input[(position + 1)..];
        ReadOnlySpan<byte> window = rest[..Math.Min(rest.Length, RespLimits.MaxHeaderLine)];
        int end = window.IndexOf((byte)'\r');
        int newline = window.IndexOf((byte)'\n');
        if (newline >= 0 && (end < 0 || newline < end))
        {
            return ParseResult.ProtocolError; // a bare LF: not RESP
        }

        if (end < 0)
        {
            return rest.Length >= RespLimits.MaxHeaderLine ? ParseResult.ProtocolError : ParseResult.Incomplete;
        }

        if (end + 1 >= rest.Length)
        {
            return ParseResult.Incomplete;
        }

        ReadOnlySpan<byte> digits = rest[..end];
        bool plain = digits.Length > 0 && (digits[0] != (byte)'-' || digits.Length == 2) && (digits[0] != (byte)'0' || digits.Length == 1);
        if (rest[end + 1] != (byte)'\n' || !plain || !Utf8Parser.TryParse(digits, out value, out int used) || used != digits.Length || value < -1)
        {
            return ParseResult.ProtocolError;
        }

        position += 1 + end + 2;
        return ParseResult.Command;
    }

    private static char Printable(byte value) => value is >= 0x20 and < 0x7f ? (char)value : '?';
}
