using System.Globalization;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// What a start needs, checked before it changes anything, so that a start that cannot finish leaves the data
/// directory byte for byte as it found it: every header it will read is whole (control files, digest logs, key
/// files), it may write where it must, the descriptors its filters will hold fit under RLIMIT_NOFILE, and the disk
/// has room for the files it makes. See docs/daemon.md, "Starting and stopping".
/// </summary>
internal static class StartCheck
{
    /// <summary>Left for the listener, the connections it accepts and the runtime's own, past what the filters hold.</summary>
    public const int SpareDescriptors = 64;

    // Free space a start asks for beyond the files it makes: the journals and checkpoints of the catch-up.
    private const long SpareBytes = 1 << 20;
    private const long ControlFileBytes = 256 * 1024;

    /// <summary>
    /// Measured: what the JIT build holds once it has loaded what the start check needs (the runtime keeps 2 descriptors
    /// per loaded assembly, about 50 of them). Below this and the spare, loading an assembly fails
    /// ("Could not load file or assembly") before any check could run; NativeAOT loads none.
    /// </summary>
    public const int RuntimeDescriptors = 128;

    /// <summary>
    /// Measured: the address space the runtime needs besides the filters' mappings (the GC sizes its reserved range from
    /// the limit, and each thread reserves its stack). Under 2 GiB the daemon listened, then aborted ("Out of memory.");
    /// under 3 GiB a timer's thread failed to start; 4 GiB served.
    /// </summary>
    public const long RuntimeAddressSpace = 4L << 30;

    /// <summary>
    /// The first check of a start, before any assembly but the runtime's own is loaded: null when the descriptor limit
    /// leaves room to load the daemon and run the full check; else the refusal.
    /// </summary>
    public static string? RuntimeRefusal()
    {
        int runtime = System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeSupported ? RuntimeDescriptors : 0;
        long limit = ProcessLimits.DescriptorLimit();
        if (limit < runtime + SpareDescriptors)
        {
            return string.Create(CultureInfo.InvariantCulture,
                $"the runtime needs about {runtime} file descriptors to load the daemon and {SpareDescriptors} to serve, and the limit (RLIMIT_NOFILE) is {limit}: raise it (LimitNOFILE= in the systemd unit, ulimit -n in a shell).");
        }

        return AddressSpaceRefusal(0);
    }

    /// <summary>Null when the address-space limit (RLIMIT_AS) leaves the runtime its due and <paramref name="mapped"/> bytes of filters; else the refusal.</summary>
    private static string? AddressSpaceRefusal(long mapped)
    {
        long limit = ProcessLimits.AddressSpaceLimit();
        long needed = RuntimeAddressSpace + mapped;
        return limit >= needed ? null : string.Create(CultureInfo.InvariantCulture,
            $"the runtime needs about {RuntimeAddressSpace >> 30} GiB of address space and the filters {mapped:N0} bytes, and the limit (RLIMIT_AS) is {limit:N0} bytes: raise or remove it (LimitAS= in the systemd unit, ulimit -v in a shell).");
    }

    /// <summary>
    /// Null when the start may write the data directory (when it does not exist yet, the directory it is made in) and
    /// its lock file; else the refusal, naming the directory and what to do. Checked before the lock is taken, so that
    /// a directory the daemon may not write is never mistaken for one in use, and nothing is created.
    /// </summary>
    public static string? DataDirectoryRefusal(string dataDirectory)
    {
        string directory = NearestExisting(dataDirectory);

        if (ProcessLimits.WriteDenial(directory) is { } denial)
        {
            return $"the daemon may not write in '{directory}': {denial}.";
        }

        string lockFile = Path.Combine(directory, DataLayout.LockFile);
        return directory == Path.GetFullPath(dataDirectory) && File.Exists(lockFile) && !ProcessLimits.CanWriteFile(lockFile)
            ? $"the daemon may not write '{lockFile}': give its user write access."
            : null;
    }

    /// <summary>Throws <see cref="StartRefusedException"/>, or InvalidDataException for a damaged header, naming what is needed.</summary>
    public static void Run(string dataDirectory, string root)
    {
        Writable(dataDirectory);
        List<ControlRecord> records = ReadControlLog(dataDirectory, out long controlBytes);

        var directories = new HashSet<string>(StringComparer.Ordinal);
        long filterDescriptors = 0;
        long mapped = 0;
        if (Directory.Exists(root))
        {
            Writable(root);
            foreach (string directory in Directory.GetDirectories(root))
            {
                string name = Path.GetFileName(directory);
                if (RecoveryRules.Classify(directory, name) != FilterDirectoryKind.Filter)
                {
                    continue; // removed by the start, or not ours
                }

                filterDescriptors += 1 + (DescriptorBudget.DescriptorsPerLayer * Check(directory));
                mapped += Directory.EnumerateFiles(directory, "layer-*.filter").Sum(file => new FileInfo(file).Length);
                directories.Add(name);
            }
        }

        // Filters the control log brings back pending count as the running daemon counts them (DescriptorBudget): a log
        // and a first layer each. Those holding items get their files at this start, and take disk space now.
        long bytes = SpareBytes + controlBytes;
        int filters = directories.Count;
        foreach ((FilterParameters parameters, bool items) in Pending(records, directories))
        {
            filters++;
            filterDescriptors += DescriptorBudget.PerNewFilter;
            long layer = items ? parameters.LayerOptions(0)?.SizeBytes ?? 0 : 0;
            bytes += items ? DigestLogFormat.PositionOf(NamedFilter.MaxHeldItems) + layer : 0;
            mapped += layer;
        }

        Descriptors(filters, filterDescriptors);
        if (AddressSpaceRefusal(mapped) is { } addressSpace)
        {
            throw new StartRefusedException(addressSpace);
        }

        Room(dataDirectory, bytes);
    }

    /// <summary>
    /// For a data directory that does not exist yet: null when a start with no filters fits the descriptor,
    /// address-space and disk limits; else the refusal. Checked before the lock, which makes the directory, so that a
    /// refused start creates nothing; <see cref="Run"/> checks again once the lock is held.
    /// </summary>
    public static string? NewDirectoryRefusal(string dataDirectory)
    {
        try
        {
            Descriptors(0, 0);
            if (AddressSpaceRefusal(0) is { } addressSpace)
            {
                return addressSpace;
            }

            Room(dataDirectory, SpareBytes + (DataLayout.ControlLogFiles.Length * ControlFileBytes));
            return null;
        }
        catch (StartRefusedException e)
        {
            return e.Message;
        }
    }

    /// <summary>Throws <see cref="StartRefusedException"/> unless the disk holding the data directory (or where it will be made) has <paramref name="bytes"/> free.</summary>
    private static void Room(string dataDirectory, long bytes)
    {
        long free = new DriveInfo(NearestExisting(dataDirectory)).AvailableFreeSpace;
        if (free < bytes)
        {
            throw new StartRefusedException(string.Create(CultureInfo.InvariantCulture,
                $"the start needs about {bytes:N0} bytes free in '{Path.GetFullPath(dataDirectory)}' for the files it makes, and {free:N0} are free: free some space."));
        }
    }

    /// <summary>The data directory, or the nearest of its parents that exists when it does not yet.</summary>
    private static string NearestExisting(string dataDirectory)
    {
        string directory = Path.GetFullPath(dataDirectory);
        while (!Directory.Exists(directory) && Path.GetDirectoryName(directory) is { } parent)
        {
            directory = parent;
        }

        return directory;
    }

    /// <summary>
    /// The filters' descriptors, what the process holds, the spare and --max-clients connections (which the running
    /// daemon keeps out of its budget, so that a start they do not fit would refuse every create) against the limit.
    /// </summary>
    private static void Descriptors(int filters, long filterDescriptors)
    {
        long process = ProcessLimits.OpenDescriptors() + DataLayout.ControlLogFiles.Length;
        long clients = DescriptorBudget.MaxClients;
        long total = filterDescriptors + process + SpareDescriptors + clients;
        long limit = ProcessLimits.DescriptorLimit();
        if (total <= limit)
        {
            return;
        }

        long fit = limit - (total - clients);
        string lower = fit >= 1 ? $" or lower --max-clients to {fit:N0}" : "";
        throw new StartRefusedException(string.Create(CultureInfo.InvariantCulture,
            $"the {filters:N0} filters need about {filterDescriptors:N0} file descriptors ({DescriptorBudget.DescriptorsPerLayer} per layer, 1 per filter), the process {process:N0}, serving {SpareDescriptors} and --max-clients {clients:N0}: {total:N0} in all, and the limit (RLIMIT_NOFILE) is {limit:N0}: raise it (LimitNOFILE= in the systemd unit, ulimit -n in a shell){lower}."));
    }

    /// <summary>Both control files' records, or none for a missing one; <paramref name="bytes"/> the space missing ones will take.</summary>
    private static List<ControlRecord> ReadControlLog(string dataDirectory, out long bytes)
    {
        List<ControlRecord> records = [];
        bytes = 0;
        foreach (string file in DataLayout.ControlLogFiles)
        {
            string path = Path.Combine(dataDirectory, file);
            if (!File.Exists(path))
            {
                bytes += ControlFileBytes;
                continue;
            }

            if (!ProcessLimits.CanWriteFile(path))
            {
                throw new StartRefusedException($"the daemon may not write '{path}': give its user write access.");
            }

            if (!ControlLogFormat.TryReadFile(File.ReadAllBytes(path), out _, out _, records))
            {
                throw ControlFile.Damaged(path);
            }
        }

        return records;
    }

    /// <summary>The headers of a filter's key file and log; returns how many layers it will open.</summary>
    private static int Check(string directory)
    {
        Writable(directory);
        KeyFileFormat.ReadKey(directory);
        string log = NamedFilter.LogPath(directory);
        if (!DigestLogFormat.TryReadHeader(DigestLog.FirstBytes(log, DigestLogFormat.HeaderLength), out _))
        {
            throw new InvalidDataException($"'{log}' is not a digest log: its header is missing, of another version or fails its checksum.");
        }

        if (!ProcessLimits.CanWriteFile(log))
        {
            throw new StartRefusedException($"the daemon may not write '{log}': give its user write access.");
        }

        // At least one: an empty filter is owed its first layer (DescriptorBudget), as a pending one is.
        return Math.Max(1, Directory.EnumerateFiles(directory, "layer-*.filter").Count());
    }

    /// <summary>The parameters of each name whose last record is a create and that has no directory, and whether items were recorded after it.</summary>
    private static IEnumerable<(FilterParameters Parameters, bool Items)> Pending(List<ControlRecord> records, HashSet<string> directories)
    {
        var last = RecoveryRules.LastByName(records);
        return last.Where(entry => entry.Value.Create is not null && !directories.Contains(entry.Key))
            .Select(entry => (entry.Value.Create!.Value.Parameters, entry.Value.Items.Count > 0));
    }

    private static void Writable(string directory)
    {
        if (Directory.Exists(directory) && !ProcessLimits.CanWriteDirectory(directory))
        {
            throw new StartRefusedException($"the daemon may not write in '{directory}': give its user write access.");
        }
    }
}

/// <summary>A start that cannot finish, refused before it changed anything; the message says what it needs.</summary>
internal sealed class StartRefusedException(string message) : Exception(message);
