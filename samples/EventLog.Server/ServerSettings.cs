namespace EventLog.Server;

/// <summary>
/// The server's own settings and fixed limits (docs/server.md, "Configuration" and "Limits"). The filter's settings are
/// the hosting package's, in the section <c>StreamExistenceFilter</c>; Kestrel's and Serilog's are their own.
/// </summary>
/// <param name="DataDirectory">The absolute data directory: the log and index under it, the filter in <c>filter/</c>.</param>
/// <param name="Engine">The engine's options: the data directory and the <c>EventLog</c> section's tuning keys (<see cref="EngineSettings"/>).</param>
internal sealed record ServerSettings(string DataDirectory, EventLogOptions Engine)
{
    /// <summary>Where the server listens unless <c>--urls</c> (or the <c>Urls</c> key) says otherwise: loopback only.</summary>
    public const string DefaultUrl = "http://127.0.0.1:2113";

    /// <summary>The configuration key of the data directory; <c>--data</c> on the command line.</summary>
    public const string DataDirectoryKey = "EventLog:DataDirectory";

    /// <summary>The data directory when none is configured, relative to the current directory.</summary>
    public const string DefaultDataDirectory = "data";

    /// <summary>The largest request body Kestrel accepts (1 MiB); a larger one gets 413.</summary>
    public const long MaxRequestBodyBytes = 1024 * 1024;

    /// <summary>How deeply request JSON may nest, counting the array of events as level 1.</summary>
    public const int MaxJsonDepth = 64;

    /// <summary>Events a read returns when the request gives no <c>count</c>.</summary>
    public const int DefaultReadCount = 100;

    /// <summary>The filter's directory under the data directory, used unless <c>StreamExistenceFilter:DataDirectory</c> is set.</summary>
    public string FilterDirectory => Path.Combine(DataDirectory, "filter");

    /// <summary>Short switches the server adds to the standard command-line provider.</summary>
    public static Dictionary<string, string> SwitchMappings => new(StringComparer.Ordinal) { ["--data"] = DataDirectoryKey };

    /// <summary>Reads the settings; a relative data directory is resolved against the current directory, as a shell user expects.</summary>
    public static ServerSettings From(IConfiguration configuration)
    {
        string configured = configuration[DataDirectoryKey] is { Length: > 0 } value ? value : DefaultDataDirectory;
        string directory = Path.GetFullPath(configured);
        return new ServerSettings(directory, EngineSettings.From(configuration, directory));
    }
}
