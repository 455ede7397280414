using System.Buffers.Text;

namespace EventFilter.DaemonBench.Client;

/// <summary>
/// Measures one RESP2 reply without materialising it: the client only needs to know where each reply ends and
/// whether it is an error, so the timed loops never allocate.
/// </summary>
internal static class RespReply
{
    /// <summary>The length of the complete reply at the start of <paramref name="data"/>, or -1 when more bytes are needed.</summary>
    /// <exception cref="InvalidDataException">The bytes are not a RESP2 reply.</exception>
    public static int Measure(ReadOnlySpan<byte> data)
    {
        int lineEnd = data.IndexOf("\r\n"u8);
        if (lineEnd < 0)
        {
            return -1;
        }

        int header = lineEnd + 2;
        switch (data[0])
        {
            case (byte)'+' or (byte)'-' or (byte)':':
                return header;
            case (byte)'$':
                long length = Number(data[1..lineEnd]);
                return length < 0 ? header : data.Length >= header + length + 2 ? header + (int)length + 2 : -1;
            case (byte)'*':
                long count = Number(data[1..lineEnd]);
                int position = header;
                for (long i = 0; i < count; i++)
                {
                    int element = Measure(data[position..]);
                    if (element < 0)
                    {
                        return -1;
                    }

                    position += element;
                }

                return position;
            default:
                throw new InvalidDataException($"not a RESP2 reply: first byte 0x{data[0]:x2}");
        }
    }

    private static long Number(ReadOnlySpan<byte> digits) =>
        Utf8Parser.TryParse(digits, out long value, out int used) && used == digits.Length
            ? value
            : throw new InvalidDataException("bad RESP length line");
}
