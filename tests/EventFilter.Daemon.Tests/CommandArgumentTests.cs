using EventFilter.Daemon.Commands;

namespace EventFilter.Daemon.Tests;

/// <summary>The compact argument syntax COMMAND DOCS is written in (<see cref="CommandArgument"/>), and that every command has documentation.</summary>
public sealed class CommandArgumentTests
{
    [Fact]
    public void The_syntax_reads_values_tokens_choices_blocks_options_and_repeats()
    {
        CommandArgument[] arguments = CommandArgument.Parse("key:key [EXPANSION=expansion:integer] [!NONSCALING] [mode(!A|!B)] AUTH=pair{user:string pass:string} item:string...");
        Assert.Equal(6, arguments.Length);
        Assert.Equal(new CommandArgument("key", "key", null, false, false, []), arguments[0] with { Arguments = [] });
        Assert.Equal(("expansion", "integer", "EXPANSION", true), (arguments[1].Name, arguments[1].Type, arguments[1].Token, arguments[1].Optional));
        Assert.Equal(("nonscaling", "pure-token", "NONSCALING", true), (arguments[2].Name, arguments[2].Type, arguments[2].Token, arguments[2].Optional));
        Assert.Equal(("mode", "oneof", true), (arguments[3].Name, arguments[3].Type, arguments[3].Optional));
        Assert.Equal(["A", "B"], arguments[3].Arguments.Select(a => a.Token));
        Assert.Equal(("pair", "block", "AUTH"), (arguments[4].Name, arguments[4].Type, arguments[4].Token));
        Assert.Equal(["user", "pass"], arguments[4].Arguments.Select(a => a.Name));
        Assert.Equal(("item", "string", true, false), (arguments[5].Name, arguments[5].Type, arguments[5].Multiple, arguments[5].Optional));
        Assert.Empty(CommandArgument.Parse(""));
    }

    [Theory]
    [InlineData("[key:key")]
    [InlineData("key")]
    [InlineData("mode(!A|!B")]
    [InlineData("key:key )")]
    public void Malformed_syntax_is_refused(string syntax) => Assert.Throws<InvalidOperationException>(() => CommandArgument.Parse(syntax));

    [Fact]
    public void Every_command_and_subcommand_is_documented()
    {
        foreach (CommandSpec command in CommandTable.Commands.SelectMany(c => c.Subcommands.Prepend(c)))
        {
            Assert.True(CommandDocs.Of(command) is not null, $"{command.Name} has no COMMAND DOCS entry");
        }
    }
}
