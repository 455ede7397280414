using EventFilter.Daemon.Commands;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The command table names each command once, as a <see cref="RespCommand"/>, and the connection dispatches on that
/// value: a reply's shape comes from the command, never from its name's length, and the hot commands allocate nothing.
/// </summary>
public sealed class CommandTableTests : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly InProcessCommands _commands;

    public CommandTableTests() => _commands = new InProcessCommands(_directory.Path);

    public void Dispose()
    {
        _commands.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void Every_command_is_identified_by_its_name_in_any_case()
    {
        RespCommand[] known = [.. Enum.GetValues<RespCommand>().Where(c => c != RespCommand.Unknown)];
        Assert.Equal(known.Length, CommandTable.Names.Count());
        foreach (RespCommand command in known)
        {
            string name = CommandTable.Of(command).Name;
            Assert.Equal(command, CommandTable.Identify(System.Text.Encoding.ASCII.GetBytes(name)));
            Assert.Equal(command, CommandTable.Identify(System.Text.Encoding.ASCII.GetBytes(name.ToLowerInvariant())));
        }

        Assert.Equal(RespCommand.Unknown, CommandTable.Identify("BF.ADDX"u8));
        Assert.Equal(RespCommand.Unknown, CommandTable.Identify("BF.AD"u8));
        Assert.Equal(RespCommand.Unknown, CommandTable.Identify(""u8));
    }

    [Theory]
    [InlineData(nameof(RespCommand.BfAdd), false)]
    [InlineData(nameof(RespCommand.BfMadd), true)]
    [InlineData(nameof(RespCommand.BfExists), false)]
    [InlineData(nameof(RespCommand.BfMexists), true)]
    public void The_reply_shape_follows_the_command_value_not_the_length_of_its_name(string command, bool array)
    {
        // The same arguments (a name of neither length), run as each command: only the value decides the shape.
        object? reply = _commands.Run(Enum.Parse<RespCommand>(command), "X", "shape", "item");
        Assert.Equal(array, reply is object?[]);
    }

    [Fact]
    public void Hot_commands_allocate_nothing_once_warm()
    {
        _commands.Call("BF.RESERVE", "hot", "0.01", "1000");
        string[][] hot = [["BF.ADD", "hot", "a"], ["bf.madd", "hot", "b", "c"], ["BF.EXISTS", "hot", "a"], ["BF.MEXISTS", "hot", "a", "z"], ["BF.INSERT", "hot", "NOCREATE", "ITEMS", "d", "e"], ["BF.CARD", "hot"], ["PING"]];
        foreach (string[] command in hot)
        {
            _commands.Call(command);
            long allocated = _commands.AllocatedBytes(command);
            Assert.True(allocated == 0, $"{command[0]} allocated {allocated} bytes");
        }
    }
}
