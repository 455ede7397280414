using System.Globalization;

namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// Bytes written as the system counted them, not as we did: the block device's own sectors-written counter
/// (<c>/sys/dev/block/MAJ:MIN/stat</c>, field 7, 512-byte sectors) for the device holding a directory, and this
/// process's <c>write_bytes</c> from <c>/proc/self/io</c>. The device counter sees every process, so run quiet.
/// </summary>
public sealed class DeviceCounters
{
    private readonly string? _statPath;

    public DeviceCounters(string directory)
    {
        _statPath = FindDeviceStat(Path.GetFullPath(directory));
        Device = _statPath is null ? "unavailable" : Path.GetFileName(Path.GetDirectoryName(_statPath)!);
    }

    /// <summary>The device's major:minor, or "unavailable" (tmpfs, overlay without a block device).</summary>
    public string Device { get; }

    public Snapshot Read() => new(DeviceBytes(), ProcessWriteBytes());

    private long DeviceBytes()
    {
        if (_statPath is null)
        {
            return 0;
        }

        string[] fields = File.ReadAllText(_statPath).Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return long.Parse(fields[6], CultureInfo.InvariantCulture) * 512;
    }

    private static long ProcessWriteBytes()
    {
        foreach (string line in File.ReadLines("/proc/self/io"))
        {
            if (line.StartsWith("write_bytes:", StringComparison.Ordinal))
            {
                return long.Parse(line["write_bytes:".Length..].Trim(), CultureInfo.InvariantCulture);
            }
        }

        return 0;
    }

    /// <summary>The mount with the longest mount point that contains <paramref name="path"/>; its device's stat file.</summary>
    private static string? FindDeviceStat(string path)
    {
        if (!File.Exists("/proc/self/mountinfo"))
        {
            return null;
        }

        string? best = null;
        int bestLength = -1;
        foreach (string line in File.ReadLines("/proc/self/mountinfo"))
        {
            // id parent major:minor root mount-point ...
            string[] fields = line.Split(' ');
            string mountPoint = fields[4];
            bool contains = path == mountPoint || path.StartsWith(mountPoint.TrimEnd('/') + "/", StringComparison.Ordinal);
            if (contains && mountPoint.Length > bestLength)
            {
                bestLength = mountPoint.Length;
                best = fields[2];
            }
        }

        string? stat = best is null ? null : $"/sys/dev/block/{best}/stat";
        return stat is not null && File.Exists(stat) ? stat : null;
    }

    public readonly record struct Snapshot(long DeviceBytes, long ProcessWriteBytes)
    {
        public static Snapshot operator -(Snapshot after, Snapshot before) =>
            new(after.DeviceBytes - before.DeviceBytes, after.ProcessWriteBytes - before.ProcessWriteBytes);
    }
}
