using System.Collections.Immutable;

namespace EventFilter.Daemon.Formats;

/// <summary>
/// The names in a daemon's data directory (docs/daemon.md, "Files"): eventfilterd makes them, and
/// <c>eventfilter inspect DIR</c> reads a data directory by them offline, without the daemon's program.
/// </summary>
public static class DataLayout
{
    /// <summary>Held (flock) while a daemon runs on the directory.</summary>
    public const string LockFile = "eventfilterd.lock";

    /// <summary>The socket's default place, in the data directory.</summary>
    public const string DefaultSocketFile = "eventfilterd.sock";

    /// <summary>The two <see cref="ControlLogFormat"/> files that take turns recording creates and drops.</summary>
    public static readonly ImmutableArray<string> ControlLogFiles = ["control-0.log", "control-1.log"];

    /// <summary>One directory per filter in here, named by <see cref="KeyNames"/>.</summary>
    public const string FiltersDirectory = "filters";

    /// <summary>A filter being restored (BF.LOADCHUNK): renamed into place by its last chunk; removed at start if left over.</summary>
    public const string CreatingSuffix = ".tmp";

    /// <summary>A filter being deleted: its files go after this rename; removed at start if left over.</summary>
    public const string DeletingSuffix = ".deleted";

    /// <summary>In a filter's directory: its <see cref="DigestLogFormat"/> log.</summary>
    public const string DigestLogFile = "digest.log";

    /// <summary>In the directory of a filter whose key is too long for a name (<see cref="KeyNames"/>): its <see cref="KeyFileFormat"/> file.</summary>
    public const string KeyFile = "key";

    /// <summary>In a filter's directory: the filter file of layer <paramref name="layer"/>.</summary>
    public static string LayerFile(int layer) => $"layer-{layer:D3}.filter";

    /// <summary>True for the leftovers of an interrupted restore (.tmp) or delete (.deleted), which the next start removes.</summary>
    public static bool IsLeftover(string directoryName) =>
        directoryName.EndsWith(CreatingSuffix, StringComparison.Ordinal) || directoryName.EndsWith(DeletingSuffix, StringComparison.Ordinal);
}
