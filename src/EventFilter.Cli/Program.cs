// The `eventfilter` operator tool. Everything lives behind Cli.RunAsync so that tests drive it in-process.
using EventFilter.Cli;

return await Cli.RunAsync(args, CliConsole.ForProcess()).ConfigureAwait(false);
