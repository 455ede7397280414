// The EventLog server: the event log engine and the stream-existence filter behind an HTTP API on 127.0.0.1:2113.
// Everything is built in ServerApp, so that the tests run the same server in-process. See docs/server.md.
using EventLog.Server;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Options;

try
{
    await using WebApplication app = ServerApp.Build(args);
    await app.RunAsync().ConfigureAwait(false);
    return 0;
}
catch (OptionsValidationException error)
{
    // A bad setting: one line naming the key, the value and what is accepted (docs/configuration.md, "Errors").
    await Console.Error.WriteLineAsync($"EventLog.Server: configuration error: {error.Message}").ConfigureAwait(false);
    return 2;
}
#pragma warning disable CA1031 // Any other failure (port in use, directory locked, a failed final checkpoint): one line here; the log has the details.
catch (Exception error)
#pragma warning restore CA1031
{
    await Console.Error.WriteLineAsync($"EventLog.Server: error: {error.Message}").ConfigureAwait(false);
    return 1;
}
