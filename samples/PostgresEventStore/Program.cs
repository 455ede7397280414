using System.Text.Json;
using EventFilter;
using EventFilter.Hosting;
using EventFilter.PostgreSql;
using Microsoft.Extensions.Options;
using PostgresEventStore;

var builder = WebApplication.CreateBuilder(args);
builder.Services.AddStreamExistenceFilter(builder.Configuration.GetSection("StreamExistenceFilter"));
builder.Services.AddPostgreSqlStreamLog(builder.Configuration.GetSection(PostgreSqlStreamLogOptions.SectionName));
builder.Services.AddSingleton<EventStore>();
builder.Services.AddHealthChecks().AddStreamExistenceFilterCheck();

var app = builder.Build();
app.MapHealthChecks("/health");
app.MapPost("/streams/{name}", async (string name, long? expectedVersion, JsonElement[] events, EventStore store, CancellationToken cancel) =>
{
    AppendResult result = await store.AppendAsync(name, expectedVersion ?? EventStore.NoStream, [.. events.Select(e => new EventData(e.GetProperty("type").GetString()!, e.GetProperty("data").GetRawText()))], cancel);
    return result.Appended
        ? Results.Created($"/streams/{name}", new { version = result.Version, position = result.Position })
        : Results.Conflict(new { currentVersion = result.Version });
});
app.MapGet("/streams/{name}", (string name, IStreamExistenceFilter filter) => new { mightExist = filter.MightExist(name) });
app.MapGet("/filter", (IFilterReadPosition filter) => new { readPosition = filter.ReadPosition }); // every record below it has been read

try
{
    await app.RunAsync();
    return 0;
}
catch (Exception failed)
{
    (string message, int exitCode) = failed switch
    {
        OptionsValidationException invalid => (invalid.Message, 2), // a bad setting, named
        StreamExistenceFilterStartException filter => (filter.Message, filter.ExitCode), // the filter's files: cause and what to do
        PostgreSqlStreamLogStartException table => (table.Message, table.ExitCode), // the events table or its database: what to change
        _ => (failed.ToString(), 1), // no known cause: the whole exception, for a bug report
    };
    Console.Error.WriteLine(message);
    return exitCode;
}
