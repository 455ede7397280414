using EventFilter;
using EventFilter.Hosting;
using EventLog.Server.Logging;
using Microsoft.Extensions.Options;

namespace EventLog.Server.Hosting;

/// <summary>
/// The lines an operator reads first: once Kestrel listens, where (the real port, also when <c>--urls</c> asked for
/// port 0), where the data is, and the filter's state; and, on Ctrl+C, what shutting down will do.
/// </summary>
internal static class StartupBanner
{
    public static void Register(WebApplication app, ServerSettings settings)
    {
        ILogger logger = app.Services.GetRequiredService<ILoggerFactory>().CreateLogger("EventLog.Server");
        app.Lifetime.ApplicationStarted.Register(() =>
        {
            StreamExistenceFilterHostingOptions filter = app.Services.GetRequiredService<IOptions<StreamExistenceFilterHostingOptions>>().Value;
            FilterState state = app.Services.GetRequiredService<IStreamExistenceFilter>().State;
            string filterDirectory = Path.GetFullPath(filter.DataDirectory ?? settings.FilterDirectory);
            Log.Listening(logger, string.Join(", ", app.Urls));
            Log.DataLayout(logger, settings.DataDirectory, Relative(settings.DataDirectory, filterDirectory), filter.StreamExistenceFilterSize, EngineStarter.Describe(state));
            Log.Endpoints(logger);
        });
        app.Lifetime.ApplicationStopping.Register(() => Log.ShuttingDown(logger));
    }

    // "filter/" when the filter lives in the data directory, as it does unless configured elsewhere.
    private static string Relative(string dataDirectory, string filterDirectory)
    {
        string relative = Path.GetRelativePath(dataDirectory, filterDirectory);
        return relative.StartsWith("..", StringComparison.Ordinal) || Path.IsPathRooted(relative) ? filterDirectory : relative + "/";
    }
}
