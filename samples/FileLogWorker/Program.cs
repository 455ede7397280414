using EventFilter;
using EventFilter.Hosting;
using FileLogWorker;
using Microsoft.Extensions.Options;
using OpenTelemetry.Metrics;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddSingleton(new FileStreamLog(builder.Configuration["Log"] ?? "data/streams.log"));
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
    // Validate before running, so a bad setting is one line and an exit code, not the host's stack trace.
    _ = app.Services.GetRequiredService<IOptions<StreamExistenceFilterHostingOptions>>().Value;
}
catch (OptionsValidationException invalid)
{
    Console.Error.WriteLine(invalid.Message);
    return 2;
}

await app.RunAsync();
return 0;
