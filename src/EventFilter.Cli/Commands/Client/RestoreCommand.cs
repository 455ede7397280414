using System.CommandLine;
using System.Globalization;
using System.Text;
using EventFilter.Cli.Client;
using EventFilter.Cli.Output;
using EventFilter.Cli.Progress;
using EventFilter.Cli.Reports.Client;
using EventFilter.Daemon.Formats;

namespace EventFilter.Cli.Commands.Client;

/// <summary>
/// `restore NAME FILE`: the file is read through and checked first, then each (iterator, chunk) pair goes to
/// BF.LOADCHUNK in order, with progress in items on stderr. The daemon makes the filter exist only when its last
/// chunk is loaded and durable. docs/operations.md, "Backup and restore".
/// </summary>
internal static class RestoreCommand
{
    public static Command Create(DaemonSession session, CliConsole console)
    {
        Argument<string> name = ClientSymbols.FilterName();
        Argument<string> file = BackupSymbols.File("A file `backup` wrote.");
        var command = new Command("restore", "Make a filter from a backup file (BF.LOADCHUNK) under a name that has no filter; it appears only once complete and durable. Exit 2 if the file is damaged (nothing is sent), 4 if the daemon refused (the name is taken).") { name, file };
        session.SetAction(command, CliJsonContext.Default.RestoreReport, async (parsed, daemon) =>
        {
            string key = parsed.GetValue(name)!;
            string path = parsed.GetValue(file)!;

            // Through once before anything is sent: a damaged or cut-short file restores nothing.
            long total = 0;
            foreach ((_, byte[] chunk) in BackupFile.Read(path))
            {
                total += DumpChunkFormat.TryReadHeader(chunk, out DumpHeader header, out _) ? header.Items : 0;
            }

            ReadOnlyMemory<byte> command = "BF.LOADCHUNK"u8.ToArray(), keyBytes = Encoding.UTF8.GetBytes(key);
            long items = 0;
            int chunks = 0;
            using (ProgressDisplay progress = ProgressDisplay.Start(console, $"restore {key}", total, "items"))
            {
                foreach ((long iterator, byte[] chunk) in BackupFile.Read(path))
                {
                    daemon.RestartTimeout();
                    string position = iterator.ToString(CultureInfo.InvariantCulture);
                    RespReply reply = await daemon.CallAsync([command, keyBytes, Encoding.ASCII.GetBytes(position), chunk]).ConfigureAwait(false);
                    if (reply.IsError)
                    {
                        throw DaemonConnection.Refused(["BF.LOADCHUNK", key, position], reply.Text!);
                    }

                    chunks++;
                    items += chunks == 1 ? 0 : DumpChunkFormat.ReadItems(chunk).Digests.Length;
                    progress.Report(items);
                }
            }

            return new RestoreReport(daemon.SocketPath, key, path, items, chunks);
        });
        return command;
    }
}
