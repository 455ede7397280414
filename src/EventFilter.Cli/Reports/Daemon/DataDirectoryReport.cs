using EventFilter.Cli.Client;
using EventFilter.Cli.Output;
using EventFilter.Daemon.Formats;

namespace EventFilter.Cli.Reports.Daemon;

/// <summary>
/// `inspect DIR` on an eventfilterd data directory, offline: every named filter with its digest log and layers.
/// Nothing is written and no lock is taken, so it may run beside a live daemon, whose files then change under it.
/// </summary>
/// <param name="DaemonListening">Whether a daemon answers on the directory's default socket: then the figures are a snapshot of live files.</param>
/// <param name="Leftovers">Directories of an interrupted restore or delete, which the next start removes.</param>
/// <param name="ControlLog">Creates and drops not yet applied to filters/ (a filter created since the last tick has no directory yet).</param>
internal sealed record DataDirectoryReport(string Path, bool DaemonListening, int FilterCount, IReadOnlyList<NamedFilterReport> Filters, IReadOnlyList<string> Leftovers, ControlLogReport ControlLog)
{
    /// <summary>True when <paramref name="path"/> looks like a daemon's data directory (--data).</summary>
    public static bool IsDataDirectory(string path) =>
        System.IO.Directory.Exists(System.IO.Path.Combine(path, DataLayout.FiltersDirectory)) || File.Exists(System.IO.Path.Combine(path, DataLayout.LockFile));

    public static async Task<DataDirectoryReport> ReadAsync(CliConsole console, string path, double threshold, CancellationToken cancel)
    {
        string root = System.IO.Path.Combine(path, DataLayout.FiltersDirectory);
        var filters = new List<NamedFilterReport>();
        var leftovers = new List<string>();
        string[] directories = System.IO.Directory.Exists(root) ? System.IO.Directory.GetDirectories(root) : [];
        foreach (string directory in directories.Order(StringComparer.Ordinal))
        {
            string name = System.IO.Path.GetFileName(directory);
            if (DataLayout.IsLeftover(name))
            {
                leftovers.Add(name);
            }
            else if (KeyNames.IsFilterName(name))
            {
                filters.Add(NamedFilterReport.Read(console, directory, KeyOf(directory), threshold));
            }
        }

        filters.Sort((a, b) => string.CompareOrdinal(a.Name, b.Name));
        bool listening = await IsListeningAsync(System.IO.Path.Combine(path, DataLayout.DefaultSocketFile), cancel).ConfigureAwait(false);
        return new DataDirectoryReport(path, listening, filters.Count, filters, leftovers, ControlLogReport.Read(path));
    }

    /// <summary>The filter's key (from a long key's key file); a key file that cannot be read shows as the directory's name.</summary>
    private static byte[] KeyOf(string directory)
    {
        try
        {
            return KeyFileFormat.ReadKey(directory);
        }
        catch (Exception e) when (e is IOException or InvalidDataException)
        {
            return System.Text.Encoding.ASCII.GetBytes(System.IO.Path.GetFileName(directory));
        }
    }

    public void WriteText(TextWriter output)
    {
        output.WriteLine($"data directory   {Path}{(DaemonListening ? " (eventfilterd is running on it: a snapshot of live files)" : string.Empty)}");
        output.WriteLine($"filters          {TextFormat.Count(FilterCount)}");
        if (Leftovers.Count > 0)
        {
            output.WriteLine($"leftovers        {string.Join(", ", Leftovers)} (an interrupted restore or delete: removed at the next start)");
        }

        ControlLog.WriteText(output);

        foreach (NamedFilterReport filter in Filters)
        {
            output.WriteLine();
            filter.WriteText(output);
        }
    }

    /// <summary>Damaged digest log or control log headers stop the daemon's start: an error each, and exit 2 (unwritten ones are only dropped). Layer checkpoints are judged as `inspect FILE` judges them.</summary>
    public int Judge(TextWriter error)
    {
        int exitCode = ExitCodes.Success;
        if (ControlLog.Status is ControlLogReport.Invalid)
        {
            error.WriteLine($"{CommandTree.ToolName}: error: {ControlLog.Problem}");
            exitCode = ExitCodes.Failure;
        }

        foreach (NamedFilterReport filter in Filters)
        {
            if (filter.DigestLog.Status is DigestLogReport.Invalid)
            {
                error.WriteLine($"{CommandTree.ToolName}: error: filter '{filter.Name}': {filter.DigestLog.Problem}");
                exitCode = ExitCodes.Failure;
            }

            foreach (LayerReport layer in filter.Layers)
            {
                exitCode = CheckpointReport.Judge(layer.Checkpoint, error, exitCode);
            }
        }

        return exitCode;
    }

    private static async Task<bool> IsListeningAsync(string socketPath, CancellationToken cancel)
    {
        if (!File.Exists(socketPath))
        {
            return false;
        }

        try
        {
            await using DaemonConnection probe = await DaemonConnection.OpenAsync(socketPath, TimeSpan.FromSeconds(1), cancel).ConfigureAwait(false);
            return true;
        }
        catch (DaemonUnreachableException)
        {
            return false;
        }
    }
}
