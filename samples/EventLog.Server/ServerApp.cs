using EventFilter.Hosting;
using EventFilter.Storage;
using EventLog.Errors;
using EventLog.Server.Api;
using EventLog.Server.Hosting;
using EventLog.Server.Logging;
using EventLog.Server.Telemetry;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;
using Serilog;

namespace EventLog.Server;

/// <summary>
/// Builds the server: configuration, Serilog, Kestrel's limits, the services and the endpoints. The program runs what
/// this returns; the tests build it the same way, on a free port and a temporary data directory.
/// </summary>
internal static class ServerApp
{
    /// <summary>Held while a server uses the data directory, its log files and the filter included.</summary>
    public const string ServerLockFileName = "server.lock";

    public static WebApplication Build(string[] args)
    {
        WebApplicationBuilder builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            Args = args,

            // appsettings.json sits beside the program, whatever directory the process was started in.
            ContentRootPath = AppContext.BaseDirectory,
        });
        builder.Configuration.AddCommandLine(args, ServerSettings.SwitchMappings);
        ServerSettings settings = ServerSettings.From(builder.Configuration);
        ValidateFilterSettings(builder.Configuration, settings);

        // Before anything in the data directory is opened for writing, the log files included: a refused second
        // server must not write into the live one's log file, whose later lines would overwrite its error mid-line.
        // Its error is then one line from Program.
        Directory.CreateDirectory(settings.DataDirectory);
        string lockPath = Path.Combine(settings.DataDirectory, ServerLockFileName);
        LockFile directoryLock = LockFile.TryAcquire(lockPath, out LockFile? acquired, out IOException? held)
            ? acquired
            : throw new DirectoryInUseException(settings.DataDirectory, lockPath, "server", held);
        try
        {
            return Build(builder, settings, directoryLock);
        }
        catch
        {
            directoryLock.Dispose();
            throw;
        }
    }

    private static WebApplication Build(WebApplicationBuilder builder, ServerSettings settings, LockFile directoryLock)
    {
        // preserveStaticLogger: each server owns its logger and closes it with its host. Assigned to the static
        // Log.Logger, one server's stop flushed another's sink: in the tests, a server beside DiskFullTests' full
        // tmpfs failed its own shutdown with ENOSPC from the other server's log file (flake-check, 1 of 4 runs).
        builder.Services.AddSerilog((_, logger) => SerilogSetup.Configure(logger, builder.Configuration, settings.DataDirectory), preserveStaticLogger: true);

        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Limits.MaxRequestBodySize = ServerSettings.MaxRequestBodyBytes;
            kestrel.AddServerHeader = false;
        });
        builder.Services.AddEventLogServer(builder.Configuration, settings);

        // A factory registration, resolved first, so the container disposes the lock with the app, after everything else.
        builder.Services.AddSingleton(_ => directoryLock);
        WebApplication app = builder.Build();
        _ = app.Services.GetRequiredService<LockFile>();
        _ = app.Services.GetRequiredService<EngineMetrics>(); // its instruments exist before the first scrape
        app.UseSerilogRequestLogging(requests => requests.GetLevel = RequestLogLevel.Of);
        app.UseExceptionHandler();
        app.UseStatusCodePages();
        app.Use(DotSegments.RefuseAsync);
        app.MapStreamEndpoints();
        app.MapFilterEndpoints();
        app.MapHealthChecks("/health", new HealthCheckOptions { ResponseWriter = HealthResponseWriter.WriteAsync });
        app.MapPrometheusScrapingEndpoint("/metrics");
        StartupBanner.Register(app, settings);
        return app;
    }

    /// <summary>
    /// Validates the filter's settings before anything is created (the lock file included), on a throwaway container
    /// of the server's own registrations, so that a bad value is one line from the program (an
    /// <see cref="OptionsValidationException"/>) instead of the host's "failed to start" stack trace, and leaves no trace.
    /// </summary>
    private static void ValidateFilterSettings(IConfiguration configuration, ServerSettings settings)
    {
        var services = new ServiceCollection();
        services.AddSingleton(configuration); // the --stream-existence-filter-size switch is read from it
        using ServiceProvider probe = services.AddEventLogServer(configuration, settings).BuildServiceProvider();
        _ = probe.GetRequiredService<IOptions<StreamExistenceFilterHostingOptions>>().Value;
    }
}
