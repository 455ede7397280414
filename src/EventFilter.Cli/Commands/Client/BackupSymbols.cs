using System.CommandLine;

namespace EventFilter.Cli.Commands.Client;

/// <summary>The file argument `backup` and `restore` share.</summary>
internal static class BackupSymbols
{
    public static Argument<string> File(string description) => new("file") { Description = description };
}
