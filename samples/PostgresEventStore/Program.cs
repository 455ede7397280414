using System.Text.Json;
using EventFilter;
using EventFilter.Hosting;
using Microsoft.Extensions.Options;
using Npgsql;
using PostgresEventStore;

if (args is ["--bench", ..])
{
#pragma warning disable RS0030 // The bench's composition root: it times its runs on this clock.
    return await StreamCreationBench.RunAsync(args[1..], TimeProvider.System);
#pragma warning restore RS0030
}

var builder = WebApplication.CreateBuilder(args);
NpgsqlDataSource database;
try
{
    database = NpgsqlDataSource.Create(builder.Configuration.GetConnectionString("Events") ?? "");
}
catch (ArgumentException invalid)
{
    Console.Error.WriteLine($"ConnectionStrings:Events is not a usable connection string ({invalid.Message}): set it in appsettings.json or as --ConnectionStrings:Events \"Host=...\"");
    return 2;
}

builder.Services.AddSingleton(database);
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
    await EventsTable.CreateAsync(database); // before the filter reads it
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
catch (NpgsqlException unreachable)
{
    Console.Error.WriteLine($"The events database: {unreachable.Message} (ConnectionStrings:Events)"); // unreachable, or refused us
    return 1;
}
catch (Exception unexpected)
{
    Console.Error.WriteLine(unexpected); // no known cause: the whole exception, for a bug report
    return 1;
}
