using System.Globalization;
using System.Text;
using EventFilter.Daemon.Commands;

namespace EventFilter.Daemon.Server;

/// <summary>
/// What CLIENT reports of one connection: its id, the name CLIENT SETNAME or HELLO SETNAME gave it, where it came
/// from, how old and how idle it is, and its last command. Written by its connection's thread, read by any CLIENT LIST.
/// </summary>
internal sealed class ConnectedClient(string address, string localAddress, bool unixSocket, TimeProvider time)
{
    private static long s_lastId;
    private readonly long _connected = time.GetTimestamp();
    private long _lastActive = time.GetTimestamp();

    /// <summary>Unique for the daemon's life, as Redis numbers its clients (HELLO's and CLIENT ID's "id").</summary>
    public long Id { get; } = Interlocked.Increment(ref s_lastId);

    /// <summary>The client's name; null until one is set, and again after an empty one.</summary>
    public string? Name { get; set; }

    /// <summary>The lower-case name of the command it ran last (<c>container|sub</c> for a subcommand).</summary>
    public string LastCommand { get; set; } = "NULL";

    /// <summary>A read came in: the client is not idle.</summary>
    public void Active() => Volatile.Write(ref _lastActive, time.GetTimestamp());

    /// <summary>
    /// One line of CLIENT LIST (and CLIENT INFO) in Redis 7.0.15's format, every field in its order, ending in a newline.
    /// rbs and rbp are the reply buffer's size (its peak is not tracked: the buffer shrinks back after a large reply).
    /// fd is -1: reading a socket's descriptor marks it exposed to the runtime. The query buffer is not this class's
    /// to see, and replies are sent before the next read, so qbuf, qbuf-free,
    /// argv-mem, obl, oll and omem are 0; multi and multi-mem are the queued commands and their bytes; tot-mem counts
    /// the reply buffer and the queue (docs/daemon.md, "Clients").
    /// </summary>
    public string Describe(CommandContext context)
    {
        long now = time.GetTimestamp();
        ClientTransaction transaction = context.Transaction;
        bool multi = transaction.Open;
        var line = new StringBuilder();
        line.Append(CultureInfo.InvariantCulture, $"id={Id} addr={address} laddr={localAddress} fd=-1 name={Name}");
        line.Append(CultureInfo.InvariantCulture, $" age={Seconds(_connected, now)} idle={Seconds(Volatile.Read(ref _lastActive), now)} flags={(multi ? "x" : "")}{(unixSocket ? 'U' : 'N')}");
        line.Append(CultureInfo.InvariantCulture, $" db=0 sub=0 psub=0 ssub=0 multi={(multi ? transaction.Count : -1)} qbuf=0 qbuf-free=0 argv-mem=0 multi-mem={transaction.QueuedBytes}");
        line.Append(CultureInfo.InvariantCulture, $" rbs={context.Reply.Capacity} rbp={context.Reply.Capacity} obl=0 oll=0 omem=0 tot-mem={context.Reply.Capacity + transaction.AllocatedBytes} events=r");
        line.Append(CultureInfo.InvariantCulture, $" cmd={LastCommand} user=default redir=-1 resp={context.Reply.ProtocolVersion}\n");
        return line.ToString();
    }

    private long Seconds(long from, long to) => (long)time.GetElapsedTime(from, to).TotalSeconds;
}
