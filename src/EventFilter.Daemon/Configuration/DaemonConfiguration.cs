using System.CommandLine;
using System.Net;
using EventFilter.Daemon.Server;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Configuration.EnvironmentVariables;
using Microsoft.Extensions.Configuration.Memory;

namespace EventFilter.Daemon.Configuration;

/// <summary>
/// Reads the settings with .NET's usual precedence: the command line over the environment over the JSON file of
/// --config. A wrong value stops the start with one line naming the setting as it was given (the option, the
/// environment variable, or the key in the file) and what is wrong; nothing has been touched by then.
/// </summary>
internal static class DaemonConfiguration
{
    /// <summary>What the command line asked for: exit at once with a code (help, version, a bad setting), or start.</summary>
    public sealed record Outcome(int? ExitCode, DaemonOptions? Options, IConfigurationRoot? Configuration);

    public static Outcome Load(string[] args)
    {
        var commandLine = new DaemonCommandLine();
        ParseResult parsed = commandLine.Root.Parse(args);
        if (parsed.Errors.Count > 0)
        {
            // The first mistake only, in one line: an unknown option's value would otherwise come out as a second one.
            return Fail($"{parsed.Errors[0].Message} Run 'eventfilterd --help' for the options.");
        }

        if (parsed.Action is not null)
        {
            // --help or --version: they print and exit 0.
            return new(parsed.Invoke(), null, null);
        }

        string? configFile = parsed.GetValue(commandLine.Config) is { } file ? Path.GetFullPath(file) : null;
        IConfigurationRoot configuration;
        try
        {
            var builder = new ConfigurationBuilder();
            if (configFile is not null)
            {
                builder.AddJsonFile(configFile, optional: false, reloadOnChange: false);
            }

            // Unprefixed, as .NET reads them: Eventfilterd__Port=6380, and Logging__LogLevel__Default=Debug for the log.
            configuration = builder.AddEnvironmentVariables().AddInMemoryCollection(commandLine.Given(parsed)).Build();
        }
        catch (Exception e) when (e is IOException or InvalidDataException or FormatException or UnauthorizedAccessException)
        {
            return Fail($"cannot read the configuration file '{configFile}': {e.Message}");
        }

        try
        {
            return new(null, Bind(configuration, configFile) with { ConfigFile = configFile }, configuration);
        }
        catch (ArgumentException e)
        {
            return Fail(e.Message);
        }
    }

    /// <exception cref="ArgumentException">A wrong value or an unknown setting, named as it was given.</exception>
    private static DaemonOptions Bind(IConfigurationRoot configuration, string? configFile)
    {
        var options = new DaemonOptions();
        foreach (DaemonSettings.Setting setting in DaemonSettings.All)
        {
            if (configuration[Key(setting.Key)] is { } value)
            {
                try
                {
                    options = setting.Apply(options, value);
                }
                catch (FormatException e)
                {
                    throw new ArgumentException($"{Source(configuration, configFile, setting.Key, setting.Option)} {e.Message}.", e);
                }
            }
        }

        foreach (IConfigurationSection given in configuration.GetSection(DaemonSettings.Section).GetChildren())
        {
            if (!DaemonSettings.All.Any(s => string.Equals(s.Key, given.Key, StringComparison.OrdinalIgnoreCase)))
            {
                throw new ArgumentException($"{Source(configuration, configFile, given.Key, given.Key)} is not a setting; the settings are {string.Join(", ", DaemonSettings.All.Select(s => s.Key))}.");
            }
        }

        if (options.Port is null && configuration[Key("Bind")] is not null)
        {
            throw new ArgumentException("--bind needs --port: there is no TCP listener without a port.");
        }

        if (!IPAddress.IsLoopback(options.BindAddress) && options.PasswordFile is null)
        {
            throw new ArgumentException($"--bind {options.BindAddress} is not a loopback address: listening there needs a password (--requirepass-file).");
        }

        return options.PasswordFile is { } path ? options with { Password = ClientPassword.ReadFile(path) } : options;
    }

    private static string Key(string name) => $"{DaemonSettings.Section}:{name}";

    /// <summary>Where the value in effect came from, as the operator wrote it: the last provider that has it wins.</summary>
    private static string Source(IConfigurationRoot configuration, string? configFile, string name, string option)
    {
        foreach (IConfigurationProvider provider in configuration.Providers.Reverse())
        {
            if (provider.TryGet(Key(name), out _))
            {
                return provider switch
                {
                    MemoryConfigurationProvider => option,
                    EnvironmentVariablesConfigurationProvider => $"the environment variable {DaemonSettings.Section}__{name}",
                    FileConfigurationProvider => $"{Key(name)} in {configFile}",
                    _ => Key(name),
                };
            }
        }

        return Key(name);
    }

    private static Outcome Fail(string message)
    {
        Console.Error.WriteLine($"eventfilterd: {message}");
        return new(2, null, null);
    }
}
