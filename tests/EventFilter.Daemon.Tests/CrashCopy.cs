namespace EventFilter.Daemon.Tests;

/// <summary>
/// A copy of a data directory as SIGKILL would leave it, taken while the store is still open: the page cache's view of
/// every file (what the files hold), without the lock files the open store holds (a killed process holds none).
/// </summary>
internal static class CrashCopy
{
    public static void Make(string from, string to)
    {
        Directory.CreateDirectory(to);
        foreach (string directory in Directory.GetDirectories(from, "*", SearchOption.AllDirectories))
        {
            Directory.CreateDirectory(directory.Replace(from, to, StringComparison.Ordinal));
        }

        foreach (string file in Directory.GetFiles(from, "*", SearchOption.AllDirectories).Where(f => !f.EndsWith(".lock", StringComparison.Ordinal)))
        {
            File.Copy(file, file.Replace(from, to, StringComparison.Ordinal));
        }
    }
}
