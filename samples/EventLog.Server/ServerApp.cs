using EventFilter.Hosting;
using EventLog.Server.Api;
using EventLog.Server.Hosting;
using EventLog.Server.Logging;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Serilog;

namespace EventLog.Server;

/// <summary>
/// Builds the server: configuration, Serilog, Kestrel's limits, the services and the endpoints. The program runs what
/// this returns; the tests build it the same way, on a free port and a temporary data directory.
/// </summary>
internal static class ServerApp
{
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

        builder.Logging.ClearProviders();
        builder.Logging.AddSerilog(SerilogSetup.CreateLogger(builder.Configuration, settings.DataDirectory), dispose: true);

        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Limits.MaxRequestBodySize = ServerSettings.MaxRequestBodyBytes;
            kestrel.AddServerHeader = false;
        });
        builder.Services.AddEventLogServer(builder.Configuration, settings);

        WebApplication app = builder.Build();
        ValidateSettings(app);
        app.UseExceptionHandler();
        app.UseStatusCodePages();
        app.MapStreamEndpoints();
        app.MapFilterEndpoints();
        app.MapHealthChecks("/health", new HealthCheckOptions { ResponseWriter = HealthResponseWriter.WriteAsync });
        StartupBanner.Register(app, settings);
        return app;
    }

    /// <summary>
    /// Validates the filter's settings now rather than when the host starts, so that a bad value is one line from
    /// the program (an <see cref="OptionsValidationException"/>) instead of the host's "failed to start" stack trace.
    /// </summary>
    private static void ValidateSettings(WebApplication app)
    {
        try
        {
            _ = app.Services.GetRequiredService<IOptions<StreamExistenceFilterHostingOptions>>().Value;
        }
        catch
        {
            ((IDisposable)app).Dispose();
            throw;
        }
    }
}
