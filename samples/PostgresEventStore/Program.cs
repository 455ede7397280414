using System.Text.Json;
using EventFilter;
using EventFilter.Hosting;
using Microsoft.Extensions.Options;
using Npgsql;
using PostgresEventStore;

if (args is ["--bench", ..])
{
    return await StreamCreationBench.RunAsync(args[1..]);
}

var builder = WebApplication.CreateBuilder(args);
string connectionString = builder.Configuration.GetConnectionString("Events")
    ?? throw new InvalidOperationException("Set ConnectionStrings:Events (appsettings.json, or --ConnectionStrings:Events \"Host=...\").");
builder.Services.AddSingleton(NpgsqlDataSource.Create(connectionString));
builder.Services.AddSingleton<CommittedEnd, HighWaterMark>();
builder.Services.AddSingleton<PostgresStreamLog>();
builder.Services.AddSingleton<IStreamNameLog>(services => services.GetRequiredService<PostgresStreamLog>());
builder.Services.AddSingleton<ICheckpointPositionSource>(services => services.GetRequiredService<PostgresStreamLog>());
builder.Services.AddHostedService<EndPoller>(); // before the filter: the end is read before it opens, and polled until it has stopped
builder.Services.AddStreamExistenceFilter(builder.Configuration.GetSection("StreamExistenceFilter"));
builder.Services.AddSingleton<GroupCommit>();
builder.Services.AddSingleton<AppendWriters>();
builder.Services.AddHostedService(services => services.GetRequiredService<AppendWriters>()); // after the filter: stops first
builder.Services.AddHealthChecks().AddStreamExistenceFilterCheck();

var app = builder.Build();
app.MapHealthChecks("/health");
app.MapPost("/streams/{name}", async (string name, long? expectedVersion, JsonElement[] events, AppendWriters writers) =>
{
    var append = new Append(name, expectedVersion ?? Append.NoStream, [.. events.Select(e => new EventData(e.GetProperty("type").GetString()!, e.GetProperty("data").GetRawText()))]);
    AppendResult result = await writers.AppendAsync(append);
    return result.Appended
        ? Results.Created($"/streams/{name}", new { version = result.CurrentVersion, position = result.LastPosition })
        : Results.Conflict(new { currentVersion = result.CurrentVersion });
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

await EventsTable.CreateAsync(app.Services.GetRequiredService<NpgsqlDataSource>());
await app.RunAsync();
return 0;
