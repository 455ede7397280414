// Load client for the EventLog server: appends one event to each of N new streams, C requests at a time, and prints
// a progress line every second and the rate at the end. See docs/server.md, "Load client".
using EventLog.Client;

#pragma warning disable RS0030 // The load client's composition root: the run name, its timings and its progress line take this clock.
return await ClientCommand.Create(TimeProvider.System).Parse(args).InvokeAsync().ConfigureAwait(false);
#pragma warning restore RS0030
