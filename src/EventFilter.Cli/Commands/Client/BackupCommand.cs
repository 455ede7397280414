using System.CommandLine;
using System.Runtime.CompilerServices;
using System.Text;
using EventFilter.Cli.Client;
using EventFilter.Cli.Output;
using EventFilter.Cli.Progress;
using EventFilter.Cli.Reports.Client;
using EventFilter.Daemon.Formats;

namespace EventFilter.Cli.Commands.Client;

/// <summary>
/// `backup NAME FILE`: RedisBloom's dump loop (BF.SCANDUMP from 0 until it answers 0) into a backup file, with progress
/// in items on stderr. The file appears whole or not at all (<see cref="BackupFile"/>). docs/operations.md, "Backup and restore".
/// </summary>
internal static class BackupCommand
{
    public static Command Create(DaemonSession session, CliConsole console)
    {
        Argument<string> name = ClientSymbols.FilterName();
        Argument<string> file = BackupSymbols.File("The backup file to write; replaced whole once the backup is complete.");
        var command = new Command("backup", "Copy a filter into a file (BF.SCANDUMP): every item the filter had acknowledged when the backup began. Adds may go on meanwhile. Exit 4 if there is no such filter.") { name, file };
        session.SetAction(command, CliJsonContext.Default.BackupReport, async (parsed, daemon) =>
        {
            string key = parsed.GetValue(name)!;
            string path = parsed.GetValue(file)!;
            var tally = new Tally();
            await BackupFile.WriteAsync(path, DumpAsync(daemon, console, key, tally)).ConfigureAwait(false);
            return new BackupReport(daemon.SocketPath, key, path, tally.Items, tally.Chunks, new FileInfo(path).Length);
        });
        return command;
    }

    private static async IAsyncEnumerable<(long Iterator, byte[] Chunk)> DumpAsync(DaemonConnection daemon, CliConsole console, string key, Tally tally, [EnumeratorCancellation] CancellationToken cancel = default)
    {
        ReadOnlyMemory<byte> command = "BF.SCANDUMP"u8.ToArray(), keyBytes = Encoding.UTF8.GetBytes(key);
        ProgressDisplay? progress = null;
        try
        {
            for (long iterator = 0; ;)
            {
                daemon.RestartTimeout();
                string[] request = ["BF.SCANDUMP", key, iterator.ToString(System.Globalization.CultureInfo.InvariantCulture)];
                RespReply reply = await daemon.CallAsync([command, keyBytes, Encoding.ASCII.GetBytes(request[2])]).ConfigureAwait(false);
                if (reply.IsError)
                {
                    throw DaemonConnection.Refused(request, reply.Text!);
                }

                IReadOnlyList<RespReply> pair = reply.AsArray();
                iterator = pair.Count == 2 ? pair[0].AsInteger() : throw new DaemonUnreachableException("BF.SCANDUMP answered an array that is not (iterator, data): is the socket really eventfilterd's?");
                byte[] chunk = pair[1].AsBytes();
                if (iterator == 0)
                {
                    yield break;
                }

                if (!DumpChunkFormat.TryReadKind(chunk, out DumpChunkKind kind, out string? problem))
                {
                    throw new DaemonUnreachableException($"the daemon's dump chunk {tally.Chunks + 1} is not one this tool reads ({problem}): is the socket really eventfilterd's?");
                }

                if (kind == DumpChunkKind.Header && DumpChunkFormat.TryReadHeader(chunk, out DumpHeader header, out _))
                {
                    progress = ProgressDisplay.Start(console, $"backup {key}", header.Items, "items");
                }
                else if (kind == DumpChunkKind.Items)
                {
                    tally.Items += DumpChunkFormat.ReadItems(chunk).Digests.Length;
                    progress?.Report(tally.Items);
                }

                tally.Chunks++;
                yield return (iterator, chunk);
            }
        }
        finally
        {
            progress?.Dispose();
        }
    }

    /// <summary>What the dump loop has sent on so far, for the report.</summary>
    private sealed class Tally
    {
        public long Items { get; set; }

        public int Chunks { get; set; }
    }
}
