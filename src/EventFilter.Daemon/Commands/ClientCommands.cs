using System.Buffers.Text;
using System.Text;
using EventFilter.Daemon.Server;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// CLIENT SETNAME, GETNAME, ID, LIST and INFO, as Redis 7 answers them: each connection has an id and may have a name
/// (<see cref="ConnectedClient"/>); LIST and INFO describe connections one line each, as verbatim text in RESP3.
/// </summary>
internal static class ClientCommands
{
    /// <summary>Redis's rule for client names: printable ASCII without spaces. Null when <paramref name="name"/> keeps it.</summary>
    public static string? CheckName(ReadOnlySpan<byte> name) =>
        name.ContainsAnyExceptInRange((byte)'!', (byte)'~') ? "ERR Client names cannot contain spaces, newlines or special characters." : null;

    /// <summary>Names the connection <paramref name="name"/>, checked already; an empty name removes it.</summary>
    public static void Rename(CommandContext context, ReadOnlySpan<byte> name) => context.Client.Name = name.IsEmpty ? null : Encoding.ASCII.GetString(name);

    /// <summary>CLIENT SETNAME name</summary>
    public static void SetName(CommandContext context)
    {
        if (CheckName(context.Arguments[2]) is { } refused)
        {
            context.Reply.Error(refused);
            return;
        }

        Rename(context, context.Arguments[2]);
        context.Reply.Ok();
    }

    /// <summary>CLIENT GETNAME: the name, or a null reply when there is none.</summary>
    public static void GetName(CommandContext context)
    {
        if (context.Client.Name is { } name)
        {
            context.Reply.Bulk(name);
        }
        else
        {
            context.Reply.Null();
        }
    }

    /// <summary>CLIENT ID</summary>
    public static void Id(CommandContext context) => context.Reply.Integer(context.Client.Id);

    /// <summary>CLIENT INFO: this connection's line.</summary>
    public static void Info(CommandContext context) => context.Reply.VerbatimText(context.Client.Describe(context));

    /// <summary>CLIENT LIST [TYPE normal|master|replica|pubsub] [ID id [id ...]]: every connection's line, or those asked for.</summary>
    public static void List(CommandContext context)
    {
        var args = context.Arguments;
        HashSet<long>? ids = null;
        bool none = false;
        for (int i = 2; i < args.Count; i++)
        {
            if (BloomArguments.Is(args[i], "TYPE"u8) && i + 1 < args.Count)
            {
                ReadOnlySpan<byte> type = args[++i];
                if (!BloomArguments.Is(type, "normal"u8) && !BloomArguments.Is(type, "master"u8) && !BloomArguments.Is(type, "replica"u8) && !BloomArguments.Is(type, "pubsub"u8))
                {
                    context.Reply.Error($"ERR Unknown client type '{CommandTable.Printable(type)}'");
                    return;
                }

                // Every connection here is a normal client: no replicas, no subscribers.
                none |= !BloomArguments.Is(type, "normal"u8);
            }
            else if (BloomArguments.Is(args[i], "ID"u8) && i + 1 < args.Count)
            {
                ids = [];
                for (i++; i < args.Count; i++)
                {
                    if (!Utf8Parser.TryParse(args[i], out long id, out int used) || used != args[i].Length || id <= 0)
                    {
                        context.Reply.Error("ERR Invalid client ID");
                        return;
                    }

                    ids.Add(id);
                }
            }
            else
            {
                context.Reply.Error("ERR syntax error");
                return;
            }
        }

        var lines = new StringBuilder();
        foreach (ClientConnection connection in context.Clients.Snapshot())
        {
            if (!none && (ids is null || ids.Contains(connection.Id)))
            {
                lines.Append(connection.Describe());
            }
        }

        context.Reply.VerbatimText(lines.ToString());
    }
}
