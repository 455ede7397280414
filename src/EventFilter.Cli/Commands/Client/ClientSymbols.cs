using System.CommandLine;

namespace EventFilter.Cli.Commands.Client;

/// <summary>The arguments the client commands share, built fresh per command (a symbol belongs to one parent).</summary>
internal static class ClientSymbols
{
    public static Argument<string> FilterName() => new("name") { Description = "The filter's name (its Redis key)." };

    public static Argument<string> Item() => new("item") { Description = "The item; put '--' before one that starts with '-'." };

    public static Argument<string[]> Items() => new("item")
    {
        Description = "The items; put '--' before the first that starts with '-'.",
        Arity = ArgumentArity.OneOrMore,
    };
}
