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
    [InlineData("PING\r\n", "ERR Protocol error: expected '*', got 'P'")]
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

    private static ParseResult Parse(string frame, out int consumed, out string? error)
    {
        byte[] buffer = Encoding.ASCII.GetBytes(frame);
        return RespParser.TryParse(buffer, buffer.Length, Limits, new CommandArguments(), 0, out consumed, out error);
    }
}
