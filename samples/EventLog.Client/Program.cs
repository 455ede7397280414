// Load client for the EventLog server: appends one event to each of N new streams, C requests at a time, and prints
// a progress line every second and the rate at the end. See docs/server.md, "Load client".
using EventLog.Client;

return await ClientCommand.Create(TimeProvider.System).Parse(args).InvokeAsync().ConfigureAwait(false);
