using System.CommandLine;

namespace EventFilter.Daemon.Configuration;

/// <summary>
/// The command line, parsed by System.CommandLine (as the CLI's): one option per setting of <see cref="DaemonSettings"/>
/// with its default in the help, plus --config, --help and --version. Values stay text here: each is checked by the
/// setting's own parser in <see cref="DaemonConfiguration"/>, the same for every source.
/// </summary>
internal sealed class DaemonCommandLine
{
    private readonly Dictionary<DaemonSettings.Setting, Option<string>> _options = [];

    public DaemonCommandLine()
    {
        var defaults = new DaemonOptions();
        Root = new RootCommand("eventfilterd: named Bloom filters served over a Unix socket (and optionally TCP) in the Redis protocol, with RedisBloom's BF.* commands. " +
            $"Each setting can also come from the configuration file (--config, section \"{DaemonSettings.Section}\") or the environment ({DaemonSettings.Section}__Key); " +
            "the command line wins over the environment, which wins over the file. See docs/daemon.md.");
        foreach (DaemonSettings.Setting setting in DaemonSettings.All)
        {
            string defaultText = setting.Default(defaults);
            var option = new Option<string>(setting.Option)
            {
                Description = $"{setting.Description} [{DaemonSettings.Section}:{setting.Key}]",
                HelpName = setting.HelpName,
                DefaultValueFactory = _ => defaultText,
            };
            _options.Add(setting, option);
            Root.Options.Add(option);
        }

        Config = new Option<string>("--config") { Description = "A JSON configuration file to read the settings (and \"Logging\") from. Default: none.", HelpName = "FILE" };
        Root.Options.Add(Config);
    }

    public RootCommand Root { get; }

    public Option<string> Config { get; }

    /// <summary>The settings given on the command line, by configuration key; defaults left out, so that they do not hide the file's or the environment's.</summary>
    public Dictionary<string, string?> Given(ParseResult parsed)
    {
        var given = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        foreach ((DaemonSettings.Setting setting, Option<string> option) in _options)
        {
            if (parsed.GetResult(option) is { Implicit: false } result)
            {
                given[$"{DaemonSettings.Section}:{setting.Key}"] = result.GetValueOrDefault<string>();
            }
        }

        return given;
    }
}
