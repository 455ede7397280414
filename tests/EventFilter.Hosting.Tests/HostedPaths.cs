namespace EventFilter.Hosting.Tests;

/// <summary>Where a hosted filter keeps its files inside a test's directory. <c>Data</c> is not created: the filter creates it.</summary>
public static class HostedPaths
{
    extension(TempDirectory directory)
    {
        public string Data => System.IO.Path.Combine(directory.Path, "data");

        public string FilterPath => System.IO.Path.Combine(directory.Path, "data", StreamExistenceFilterOptions.DefaultFileName);
    }
}
