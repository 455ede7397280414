namespace EventFilter.Testing;

/// <summary>The repository the tests were built from: the directory above the test binaries that holds EventFilter.sln. Used by the CLI's and the daemon's tests.</summary>
public static class RepositoryFiles
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
