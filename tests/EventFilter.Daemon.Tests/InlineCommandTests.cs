using System.Text;
using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Redis's inline commands in process: a line that does not start with '*' is split at spaces, quoted as redis-cli
/// quotes, and an empty line is a command of no arguments (which the connection skips); bad lines are protocol errors.
/// </summary>
public sealed class InlineCommandTests
{
    private static readonly RespLimits Limits = new() { MaxBulkLength = 100, MaxArrayLength = 10, MaxCommandBytes = 1000 };

    [Theory]
    [InlineData("PING\r\n", new[] { "PING" })]
    [InlineData("PING\n", new[] { "PING" })]
    [InlineData("  BF.ADD \t f   item  \r\n", new[] { "BF.ADD", "f", "item" })]
    [InlineData("ECHO \"a b\" 'c d'\r\n", new[] { "ECHO", "a b", "c d" })]
    [InlineData("ECHO \"\\x41\\n\\\"\" 'it\\'s' \"\"\r\n", new[] { "ECHO", "A\n\"", "it's", "" })]
    [InlineData("ECHO x\\x41 a\"b c\"\r\n", new[] { "ECHO", "x\\x41", "ab c" })]
    [InlineData("\r\n", new string[0])]
    [InlineData("\n", new string[0])]
    public void Inline_lines_split_into_arguments(string line, string[] expected)
    {
        byte[] buffer = Encoding.ASCII.GetBytes(line + "*1\r\n");
        var arguments = new CommandArguments();
        Assert.Equal(ParseResult.Command, RespParser.TryParse(buffer, buffer.Length, Limits, arguments, 0, out int consumed, out _));
        Assert.Equal(line.Length, consumed);
        Assert.Equal(expected, Enumerable.Range(0, arguments.Count).Select(i => Encoding.ASCII.GetString(arguments[i])));
    }

    [Theory]
    [InlineData("ECHO \"open\r\n", "ERR Protocol error: unbalanced quotes in request")]
    [InlineData("ECHO 'open\r\n", "ERR Protocol error: unbalanced quotes in request")]
    [InlineData("ECHO \"a\"b\r\n", "ERR Protocol error: unbalanced quotes in request")]
    [InlineData("A B C D E F G H I J K\r\n", "ERR Protocol error: invalid multibulk length")]
    public void Bad_inline_lines_are_protocol_errors(string line, string expected)
    {
        byte[] buffer = Encoding.ASCII.GetBytes(line);
        Assert.Equal(ParseResult.ProtocolError, RespParser.TryParse(buffer, buffer.Length, Limits, new CommandArguments(), 0, out _, out string? error));
        Assert.Equal(expected, error);
    }

    [Fact]
    public void A_line_waits_for_its_end_up_to_Redis_s_inline_limit_then_is_refused()
    {
        byte[] buffer = Encoding.ASCII.GetBytes("PING" + new string('x', InlineCommand.MaxLineBytes - 5));
        Assert.Equal(ParseResult.Incomplete, RespParser.TryParse(buffer, buffer.Length, Limits, new CommandArguments(), 0, out _, out _));

        buffer = [.. buffer, (byte)'x'];
        Assert.Equal(ParseResult.ProtocolError, RespParser.TryParse(buffer, buffer.Length, Limits, new CommandArguments(), 0, out _, out string? error));
        Assert.Equal("ERR Protocol error: too big inline request", error);
    }

    [Fact]
    public void An_inline_command_after_a_RESP_one_in_the_same_buffer_parses_from_its_offset()
    {
        byte[] buffer = Encoding.ASCII.GetBytes("*1\r\n$4\r\nPING\r\nECHO 'x y'\r\n");
        var arguments = new CommandArguments();
        Assert.Equal(ParseResult.Command, RespParser.TryParse(buffer, buffer.Length, Limits, arguments, 0, out int first, out _));
        Assert.Equal(ParseResult.Command, RespParser.TryParse(buffer, buffer.Length, Limits, arguments, first, out int second, out _));
        Assert.Equal(buffer.Length, first + second);
        Assert.Equal(["ECHO", "x y"], Enumerable.Range(0, arguments.Count).Select(i => Encoding.ASCII.GetString(arguments[i])));
    }

    [Fact]
    public void Parsing_an_inline_command_allocates_nothing()
    {
        byte[] line = Encoding.ASCII.GetBytes("BF.ADD f \"a b\"\r\n");
        byte[] buffer = new byte[line.Length];
        var arguments = new CommandArguments();
        var progress = new ParseProgress();
        long allocated = SteadyAllocations.Of(() =>
        {
            line.CopyTo(buffer, 0); // unquoting writes over the line
            RespParser.TryParse(buffer, buffer.Length, Limits, arguments, 0, progress, out _, out _);
        });
        Assert.Equal(0, allocated);
    }
}
