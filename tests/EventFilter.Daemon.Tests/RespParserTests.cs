using System.Text;
using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Tests;

/// <summary>The parser in process: limits are enforced before the payload arrives, and partial frames wait.</summary>
public sealed class RespParserTests
{
    private static readonly RespLimits Limits = new() { MaxBulkLength = 100, MaxArrayLength = 10, MaxCommandBytes = 1000 };

    [Theory]
    [InlineData("*1\r\n$101\r\n", "ERR Protocol error: invalid bulk length")]
    [InlineData("*11\r\n", "ERR Protocol error: invalid multibulk length")]
    [InlineData("*1\r\n$-2\r\n", "ERR Protocol error: invalid bulk length")]
    [InlineData("*1\r\n$-1\r\n", "ERR Protocol error: invalid bulk length")]
    [InlineData("*1\r\n*1\r\n", "ERR Protocol error: expected '$', got '*'")]
    [InlineData("*01\r\n", "ERR Protocol error: invalid multibulk length")]
    [InlineData("*x\r\n", "ERR Protocol error: invalid multibulk length")]
    [InlineData("*1\n", "ERR Protocol error: invalid multibulk length")]
    [InlineData("*1\r\n$1\r\nabc", "ERR Protocol error: bulk string not followed by CRLF")]
    [InlineData("*99999999999999999999999\r\n", "ERR Protocol error: invalid multibulk length")]
    public void Bad_frames_are_protocol_errors(string frame, string expected)
    {
        Assert.Equal(ParseResult.ProtocolError, Parse(frame, out _, out string? error));
        Assert.Equal(expected, error);
    }

    [Theory]
    [InlineData("")]
    [InlineData("*")]
    [InlineData("*2\r")]
    [InlineData("*2\r\n$3\r\nfoo\r\n")]
    [InlineData("*1\r\n$3\r\nfo")]
    [InlineData("*1\r\n$3\r\nfoo\r")]
    public void Partial_frames_wait_for_more(string frame) => Assert.Equal(ParseResult.Incomplete, Parse(frame, out _, out _));

    [Fact]
    public void Whole_frames_fill_the_arguments_and_leave_the_rest()
    {
        var arguments = new CommandArguments();
        byte[] buffer = Encoding.ASCII.GetBytes("*2\r\n$4\r\nPING\r\n$0\r\n\r\n*1\r\n");
        Assert.Equal(ParseResult.Command, RespParser.TryParse(buffer, buffer.Length, Limits, arguments, 0, out int consumed, out _));
        Assert.Equal(2, arguments.Count);
        Assert.Equal("PING"u8.ToArray(), arguments[0].ToArray());
        Assert.Equal(0, arguments[1].Length);
        Assert.Equal(buffer.Length - 4, consumed);
    }

    [Fact]
    public void A_partial_command_resumes_at_its_first_unfinished_argument_not_at_its_start()
    {
        var arguments = new CommandArguments();
        var progress = new ParseProgress();
        byte[] buffer = new byte[64];
        int length = Append(buffer, 0, "*3\r\n$1\r\na\r\n$2\r\nbc\r\n$5\r\nde");

        Assert.Equal(ParseResult.Incomplete, RespParser.TryParse(buffer, length, Limits, arguments, 0, progress, out _, out _));
        Assert.Equal(2, arguments.Count);
        Assert.Equal(Encoding.ASCII.GetBytes("*3\r\n$1\r\na\r\n$2\r\nbc\r\n").Length, progress.Position);

        // Bytes already parsed are not read again: spoiling them changes nothing (a parse from the start would fail).
        buffer[0] = (byte)'X';
        buffer[4] = (byte)'X';
        length = Append(buffer, length, "fgh\r\n");
        Assert.Equal(ParseResult.Command, RespParser.TryParse(buffer, length, Limits, arguments, 0, progress, out int consumed, out _));
        Assert.Equal(length, consumed);
        Assert.False(progress.Started);
        Assert.Equal(["a", "bc", "defgh"], Enumerable.Range(0, 3).Select(i => Encoding.ASCII.GetString(arguments[i])));
    }

    [Fact]
    public void A_command_fed_one_byte_at_a_time_and_moved_between_reads_parses_as_when_whole()
    {
        byte[] frame = Encoding.ASCII.GetBytes("*4\r\n$6\r\nBF.ADD\r\n$0\r\n\r\n$3\r\nkey\r\n$10\r\n0123456789\r\n");
        var arguments = new CommandArguments();
        var progress = new ParseProgress();
        byte[] buffer = new byte[4];
        int start = 2, length = 2; // a consumed command's bytes before it, as in a connection's buffer
        ParseResult result = ParseResult.Incomplete;
        foreach (byte next in frame)
        {
            Assert.Equal(ParseResult.Incomplete, result);
            if (length == buffer.Length)
            {
                // The connection moves the partial command to the front and grows the buffer between reads.
                byte[] grown = new byte[buffer.Length * 2];
                buffer.AsSpan(start, length - start).CopyTo(grown);
                (buffer, length, start) = (grown, length - start, 0);
            }

            buffer[length++] = next;
            result = RespParser.TryParse(buffer, length, Limits, arguments, start, progress, out _, out _);
        }

        Assert.Equal(ParseResult.Command, result);
        Assert.Equal(["BF.ADD", "", "key", "0123456789"], Enumerable.Range(0, arguments.Count).Select(i => Encoding.ASCII.GetString(arguments[i])));
    }

    private static int Append(byte[] buffer, int length, string text) => length + Encoding.ASCII.GetBytes(text, buffer.AsSpan(length));

    private static ParseResult Parse(string frame, out int consumed, out string? error)
    {
        byte[] buffer = Encoding.ASCII.GetBytes(frame);
        return RespParser.TryParse(buffer, buffer.Length, Limits, new CommandArguments(), 0, out consumed, out error);
    }
}
