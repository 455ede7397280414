using Serilog;
using Serilog.Core;
using Serilog.Events;
using Serilog.Settings.Configuration;

namespace EventLog.Server.Logging;

/// <summary>
/// Builds the Serilog logger from the <c>Serilog</c> section of configuration (appsettings.json): a console sink and a
/// rolling file sink. A relative file path is put under the data directory, so that one directory holds all the
/// server's state and several servers (the tests) never share a log file.
/// </summary>
internal static class SerilogSetup
{
    private const string FilePathKey = "Serilog:WriteTo:File:Args:path";

    /// <summary>The category Microsoft.Extensions.Hosting logs a failed start under.</summary>
    private const string HostCategory = "Microsoft.Extensions.Hosting.Internal.Host";

    /// <summary>Configures the server's logger (through Serilog.AspNetCore's <c>AddSerilog</c>) from configuration.</summary>
    public static LoggerConfiguration Configure(LoggerConfiguration logger, IConfigurationManager configuration, string dataDirectory)
    {
        if (configuration[FilePathKey] is { Length: > 0 } path && !Path.IsPathRooted(path))
        {
            configuration.AddInMemoryCollection([new(FilePathKey, Path.Combine(dataDirectory, path))]);
        }

        // The sinks' assemblies named up front: no scan of the dependency context, which differs under a test host.
        var readerOptions = new ConfigurationReaderOptions(
            typeof(ConsoleLoggerConfigurationExtensions).Assembly,
            typeof(FileLoggerConfigurationExtensions).Assembly);
        return logger.ReadFrom.Configuration(configuration, readerOptions).Filter.ByExcluding(IsHostsReportOfKnownCause);
    }

    /// <summary>
    /// The host's own report of a failed start ("Hosting failed to start", with the stack trace) of a cause that the
    /// service at fault logged in one line, and that the program prints in one line with its exit code
    /// (<see cref="ExitCodes"/>): left out, so no stack trace buries that line. Any other cause keeps it.
    /// </summary>
    private static bool IsHostsReportOfKnownCause(LogEvent logEvent) =>
        ExitCodes.IsKnownCause(logEvent.Exception)
        && logEvent.Properties.TryGetValue(Constants.SourceContextPropertyName, out LogEventPropertyValue? source)
        && source is ScalarValue { Value: HostCategory };
}
