using System.Globalization;
using System.Net;

namespace EventFilter.Daemon.Configuration;

/// <summary>
/// Every setting, in one table: its configuration key (section <see cref="Section"/> of the file, or the environment
/// variable <c>Eventfilterd__Key</c>), its command-line option, its help, and how its text applies to the options. The
/// same parser checks a value from any source, so a value is valid on the command line exactly when it is valid in
/// the file or the environment. docs/daemon.md, "Options", lists them.
/// </summary>
internal static class DaemonSettings
{
    /// <summary>The configuration section of the settings: <c>{"Eventfilterd": {"Port": 6380}}</c>, or <c>Eventfilterd__Port=6380</c>.</summary>
    public const string Section = "Eventfilterd";

    /// <param name="Key">The name in the file and the environment.</param>
    /// <param name="Option">The command-line option.</param>
    /// <param name="Apply">Applies the text; throws <see cref="FormatException"/> with what is wrong, which the caller prefixes with the setting's name.</param>
    public sealed record Setting(string Key, string Option, string HelpName, string Description, Func<DaemonOptions, string> Default, Func<DaemonOptions, string, DaemonOptions> Apply);

    public static readonly Setting[] All =
    [
        new("Data", "--data", "DIR", "Data directory: eventfilterd.lock and filters/.", o => o.DataDirectory, (o, v) => o with { DataDirectory = NonEmpty(v) }),
        new("Socket", "--socket", "PATH", "The Unix socket; a stale file left by a killed daemon is replaced, a live one refused.", _ => "DIR/eventfilterd.sock", (o, v) => o with { SocketPath = NonEmpty(v) }),
        new("SocketMode", "--socket-mode", "OCTAL", "Mode of the socket file, set before it listens.", o => "0" + Convert.ToString((int)o.SocketMode, 8), (o, v) => o with { SocketMode = (UnixFileMode)Number(v, 0, 511, fromBase: 8) }),
        new("Port", "--port", "N", "Also listen on TCP port N, on --bind's address.", _ => "off", (o, v) => o with { Port = (int)Number(v, 1, 65535) }),
        new("Bind", "--bind", "ADDRESS", "The TCP address for --port; an address other than loopback needs --requirepass-file.", o => o.BindAddress.ToString(), (o, v) => o with { BindAddress = Address(v) }),
        new("LogSync", "--log-sync", "always|periodic", "When digest logs are fsynced: before every reply that added (always) or every sync interval (periodic).", o => Lower(o.LogSync), (o, v) => o with { LogSync = Sync(v) }),
        new("SyncIntervalMs", "--sync-interval-ms", "N", "How often logs are fsynced and filters checkpointed, in milliseconds (10 to 3600000).", o => Text(o.SyncInterval.TotalMilliseconds), (o, v) => o with { SyncInterval = TimeSpan.FromMilliseconds(Number(v, 10, 3_600_000)) }),
        new("DefaultCapacity", "--default-capacity", "N", "Capacity of filters made by BF.ADD, BF.MADD and BF.INSERT on a missing key.", o => Text(o.DefaultCapacity), (o, v) => o with { DefaultCapacity = Number(v, 1, 1L << 40) }),
        new("DefaultErrorRate", "--default-error-rate", "R", "Error rate of filters made on a missing key, strictly between 0 and 1.", o => Text(o.DefaultErrorRate), (o, v) => o with { DefaultErrorRate = Rate(v) }),
        new("MaxClients", "--max-clients", "N", "Connections served at once; one more is answered '-ERR max number of clients reached'.", o => Text(o.MaxClients), (o, v) => o with { MaxClients = (int)Number(v, 1, 1_000_000) }),
        new("RequirePassFile", "--requirepass-file", "FILE", "Every connection must AUTH with the password in FILE (one line) before any other command.", _ => "none", (o, v) => o with { PasswordFile = NonEmpty(v) }),
    ];

    private static string NonEmpty(string value) => value.Length > 0 ? value : throw new FormatException("must not be empty");

    private static long Number(string value, long min, long max, int fromBase = 10)
    {
        long parsed;
        try
        {
            parsed = fromBase == 10 ? long.Parse(value, NumberStyles.None, CultureInfo.InvariantCulture) : Convert.ToInt64(value, fromBase);
        }
        catch (Exception e) when (e is FormatException or OverflowException or ArgumentException)
        {
            throw new FormatException($"must be a number from {min} to {max}; got '{value}'", e);
        }

        return parsed >= min && parsed <= max ? parsed : throw new FormatException($"must be from {min} to {max}; got '{value}'");
    }

    private static double Rate(string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out double rate) && rate > 0 && rate < 1
            ? rate
            : throw new FormatException($"must be strictly between 0 and 1; got '{value}'");

    private static LogSync Sync(string value) => value switch
    {
        "always" => LogSync.Always,
        "periodic" => LogSync.Periodic,
        _ => throw new FormatException($"must be 'always' or 'periodic'; got '{value}'"),
    };

    /// <summary>An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is its IPv4 address: an IPv6 socket cannot bind one.</summary>
    private static IPAddress Address(string value) =>
        !IPAddress.TryParse(value, out IPAddress? address) ? throw new FormatException($"must be an IPv4 or IPv6 address; got '{value}'")
        : address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address;

    private static string Text(IFormattable value) => value.ToString(null, CultureInfo.InvariantCulture);

    private static string Lower(LogSync value) => value.ToString().ToLowerInvariant();
}
