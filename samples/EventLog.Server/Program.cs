// The EventLog server: the event log engine and the stream-existence filter behind an HTTP API on 127.0.0.1:2113.
// Everything is built in ServerApp, so that the tests run the same server in-process. See docs/server.md.
using EventLog.Server;

try
{
    await using WebApplication app = ServerApp.Build(args);
    await app.RunAsync().ConfigureAwait(false);
    return 0;
}
#pragma warning disable CA1031 // Every failure ends here: one line and an exit code (docs/operations.md, "Start-up failures"); the log has the details.
catch (Exception error)
#pragma warning restore CA1031
{
    (int code, string line) = ExitCodes.For(error);
    await Console.Error.WriteLineAsync($"EventLog.Server: {line}").ConfigureAwait(false);
    return code;
}
