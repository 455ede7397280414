using EventFilter;
using EventFilter.Hosting;
using FileLogWorker;
using Microsoft.Extensions.Options;
using OpenTelemetry.Metrics;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton(_ => new FileStreamLog(builder.Configuration["Log"] ?? "data/streams.log")); // opened as the host starts
builder.Services.AddSingleton<IStreamNameLog>(services => services.GetRequiredService<FileStreamLog>());
builder.Services.AddStreamExistenceFilter(builder.Configuration.GetSection("StreamExistenceFilter"));
builder.Services.AddSingleton<AppendWorker>();
builder.Services.AddHostedService(services => services.GetRequiredService<AppendWorker>()); // after the filter: stops first
builder.Services.AddHealthChecks().AddStreamExistenceFilterCheck();
builder.Services.AddOpenTelemetry().WithMetrics(metrics => metrics.AddMeter("EventFilter").AddPrometheusExporter());

var app = builder.Build();
app.MapHealthChecks("/health");
app.MapPrometheusScrapingEndpoint("/metrics");
app.MapPost("/streams/{name}", async (string name, AppendWorker writer) =>
{
    await writer.AppendAsync(name);
    return Results.Created();
});
app.MapGet("/streams/{name}", (string name, IStreamExistenceFilter filter) => new { mightExist = filter.MightExist(name) });

try
{
    await app.RunAsync();
    return 0;
}
catch (OptionsValidationException invalid)
{
    Console.Error.WriteLine(invalid.Message); // a bad setting, named (docs/configuration.md, "Errors")
    return 2;
}
catch (StreamExistenceFilterStartException failed)
{
    Console.Error.WriteLine(failed.Message); // the cause and what to do (docs/operations.md, "Start-up failures")
    return failed.ExitCode;
}
catch (Exception unexpected)
{
    Console.Error.WriteLine(unexpected); // no known cause: the whole exception, for a bug report
    return 1;
}
