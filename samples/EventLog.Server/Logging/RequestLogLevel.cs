using Serilog.Events;

namespace EventLog.Server.Logging;

/// <summary>
/// The level of Serilog's one line per request: successes at Debug, so the console stays quiet under load; client
/// errors at Information; server errors and failures at Error.
/// </summary>
internal static class RequestLogLevel
{
    public static LogEventLevel Of(HttpContext context, double elapsedMilliseconds, Exception? error) =>
        error is not null || context.Response.StatusCode >= 500 ? LogEventLevel.Error
        : context.Response.StatusCode >= 400 ? LogEventLevel.Information
        : LogEventLevel.Debug;
}
