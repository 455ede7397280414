namespace EventFilter.Cli.Tests;

/// <summary>The repository the tests were built from: the directory above the test binaries that holds EventFilter.sln.</summary>
internal static class RepositoryFiles
{
    public static string Root { get; } = FindRoot();

    private static string FindRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "EventFilter.sln")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("no EventFilter.sln above " + AppContext.BaseDirectory);
    }
}
