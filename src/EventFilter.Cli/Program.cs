// The `eventfilter` operator tool. Everything lives behind Cli.RunAsync so that tests drive it in-process.
using EventFilter.Cli;

#pragma warning disable RS0030 // The tool's composition root: commands read the clock through the console.
return await Cli.RunAsync(args, CliConsole.ForProcess(TimeProvider.System)).ConfigureAwait(false);
#pragma warning restore RS0030
