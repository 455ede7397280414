namespace EventFilter.Daemon.Protocol;

/// <summary>
/// Redis's inline form: a command as one line of text, arguments separated by spaces, ended by LF or CRLF (what
/// <c>PING\r\n</c> over telnet and redis-benchmark's PING_INLINE send). An argument may be quoted as redis-cli
/// quotes: "..." with \n, \r, \t, \b, \a, \xHH and \ escapes, or '...' with \' alone. An empty line is a command of
/// no arguments, which the connection skips, as Redis does (redis-cli --pipe ends its input with one).
/// </summary>
/// <remarks>
/// Quoted arguments are unescaped in place: the unescaped form is never longer than the escaped one, so each argument
/// is written over its own bytes in the read buffer and stays a range of it, as RESP arguments are: nothing is
/// allocated. A line is parsed only once it has arrived whole, so a half-read line is never unescaped.
/// </remarks>
internal static class InlineCommand
{
    /// <summary>Longest inline line, as Redis bounds it (PROTO_INLINE_MAX_SIZE).</summary>
    public const int MaxLineBytes = 64 * 1024;

    /// <summary>Parses the line at <paramref name="buffer"/>[<paramref name="start"/>..<paramref name="length"/>) into <paramref name="arguments"/>.</summary>
    public static ParseResult TryParse(byte[] buffer, int length, RespLimits limits, CommandArguments arguments, int start, out int consumed, out string? error)
    {
        consumed = 0;
        error = null;
        Span<byte> input = buffer.AsSpan(start, length - start);
        int newline = input[..Math.Min(input.Length, MaxLineBytes)].IndexOf((byte)'\n');
        if (newline < 0)
        {
            if (input.Length < MaxLineBytes)
            {
                return ParseResult.Incomplete;
            }

            error = "ERR Protocol error: too big inline request";
            return ParseResult.ProtocolError;
        }

        arguments.Reset(buffer, start);
        int end = newline > 0 && input[newline - 1] == (byte)'\r' ? newline - 1 : newline;
        if (!TrySplit(input[..end], limits, arguments, out error))
        {
            return ParseResult.ProtocolError;
        }

        consumed = newline + 1;
        return ParseResult.Command;
    }

    /// <summary>Splits <paramref name="line"/> at whitespace, unquoting each argument over its own bytes.</summary>
    private static bool TrySplit(Span<byte> line, RespLimits limits, CommandArguments arguments, out string? error)
    {
        error = null;
        int read = 0;
        while (true)
        {
            while (read < line.Length && IsSpace(line[read]))
            {
                read++;
            }

            if (read == line.Length)
            {
                return true;
            }

            if (arguments.Count == limits.MaxArrayLength)
            {
                error = "ERR Protocol error: invalid multibulk length";
                return false;
            }

            int first = read, written = read;
            if (!TryArgument(line, ref read, ref written))
            {
                error = "ERR Protocol error: unbalanced quotes in request";
                return false;
            }

            arguments.Add(first, written - first);
        }
    }

    /// <summary>One argument from <paramref name="read"/>, its unquoted bytes written from <paramref name="written"/> (never ahead of it).</summary>
    private static bool TryArgument(Span<byte> line, ref int read, ref int written)
    {
        byte quote = 0;
        while (read < line.Length)
        {
            byte c = line[read];
            if (quote == 0)
            {
                if (IsSpace(c))
                {
                    return true;
                }

                if (c is (byte)'"' or (byte)'\'')
                {
                    quote = c;
                    read++;
                    continue;
                }

                line[written++] = c;
                read++;
            }
            else if (c == quote)
            {
                // A closing quote must end the argument, as in Redis: "a"b is refused.
                read++;
                return read == line.Length || IsSpace(line[read]);
            }
            else if (c == (byte)'\\' && read + 1 < line.Length)
            {
                line[written++] = Unescape(line, quote, ref read);
            }
            else
            {
                line[written++] = c;
                read++;
            }
        }

        return quote == 0;
    }

    /// <summary>The byte the escape at <paramref name="read"/> stands for, moving past it.</summary>
    private static byte Unescape(Span<byte> line, byte quote, ref int read)
    {
        byte next = line[read + 1];
        if (quote == (byte)'\'')
        {
            // Single quotes know one escape, \'; any other backslash is itself.
            read += next == (byte)'\'' ? 2 : 1;
            return next == (byte)'\'' ? next : (byte)'\\';
        }

        if (next == (byte)'x' && read + 3 < line.Length && Hex(line[read + 2]) is >= 0 and var high && Hex(line[read + 3]) is >= 0 and var low)
        {
            read += 4;
            return (byte)(high * 16 + low);
        }

        read += 2;
        return next switch
        {
            (byte)'n' => (byte)'\n',
            (byte)'r' => (byte)'\r',
            (byte)'t' => (byte)'\t',
            (byte)'b' => (byte)'\b',
            (byte)'a' => (byte)'\a',
            _ => next,
        };
    }

    private static int Hex(byte c) => c switch
    {
        >= (byte)'0' and <= (byte)'9' => c - '0',
        >= (byte)'a' and <= (byte)'f' => c - 'a' + 10,
        >= (byte)'A' and <= (byte)'F' => c - 'A' + 10,
        _ => -1,
    };

    private static bool IsSpace(byte c) => c is (byte)' ' or (byte)'\t' or (byte)'\r' or (byte)'\n' or (byte)'\v' or (byte)'\f';
}
