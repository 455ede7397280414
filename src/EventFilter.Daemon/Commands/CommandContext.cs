using System.IO.Hashing;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;
using EventFilter.Daemon.Protocol;
using EventFilter.Daemon.Server;

namespace EventFilter.Daemon.Commands;

/// <summary>
/// Everything a command handler needs, one per connection and reused for each of its commands: the arguments, the
/// reply buffer, the filters, and scratch arrays for digests and answers, so that commands allocate nothing.
/// </summary>
internal sealed class CommandContext(FilterStore store, DaemonOptions options, Telemetry.DaemonHealth health, Telemetry.DaemonMetrics metrics,
    ConnectedClient client, ConnectedClients? clients = null)
{
    private const int InitialItems = 128;
    // Made at the first command with items: an idle connection holds neither.
    private ulong[] _digests = [];
    private bool[] _answers = [];
    private readonly List<NamedFilter> _added = [];

    public CommandArguments Arguments { get; } = new();

    public RespWriter Reply { get; } = new();

    public FilterStore Store { get; } = store;

    public DaemonOptions Options { get; } = options;

    /// <summary>The daemon's health, for INFO.</summary>
    public Telemetry.DaemonHealth Health { get; } = health;

    /// <summary>The daemon's counters and totals, for INFO and AUTH's failures.</summary>
    public Telemetry.DaemonMetrics Metrics { get; } = metrics;

    /// <summary>
    /// False until AUTH (or HELLO AUTH) gives the password, when the daemon has one: until then the connection answers
    /// every other command with -NOAUTH (Server/ClientConnection.cs). True from the start without a password.
    /// </summary>
    public bool Authenticated { get; set; } = options.Password is null;

    /// <summary>What CLIENT reports of this connection: its id, name, addresses, age and last command.</summary>
    public ConnectedClient Client { get; } = client;

    /// <summary>Every connection served now, for CLIENT LIST.</summary>
    public ConnectedClients Clients { get; } = clients ?? new ConnectedClients();

    /// <summary>The commands queued since MULTI, if any.</summary>
    public ClientTransaction Transaction { get; } = new();

    /// <summary>The daemon's one warning of refusals at the descriptor limit, shared by every connection (<see cref="CommandTable.Run"/>).</summary>
    public required DescriptorLimitWarning DescriptorLimitWarning { get; init; }

    /// <summary>Where a command that fails on storage is logged (<see cref="CommandTable.Run"/>).</summary>
    public Microsoft.Extensions.Logging.ILogger Logger { get; init; } = Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance;

    /// <summary>Set by QUIT: close once the replies so far are sent.</summary>
    public bool CloseAfterReply { get; set; }

    public FilterParameters DefaultParameters => new(Options.DefaultCapacity, Options.DefaultErrorRate, Expansion: 2, NonScaling: false);

    /// <summary>
    /// The digests of arguments [<paramref name="first"/>, Count): XxHash3 with seed 0, the hash every layer file is
    /// created with, so one digest serves the log and every layer.
    /// </summary>
    public ReadOnlySpan<ulong> DigestItems(int first)
    {
        int count = Arguments.Count - first;
        if (_digests.Length < count)
        {
            _digests = new ulong[Math.Max(count, Math.Max(InitialItems, _digests.Length * 2))];
        }

        for (int i = 0; i < count; i++)
        {
            _digests[i] = XxHash3.HashToUInt64(Arguments[first + i]);
        }

        return _digests.AsSpan(0, count);
    }

    /// <summary><paramref name="filter"/> took new items: its log is written (and with --log-sync always, fsynced) before the replies go out.</summary>
    public void Added(NamedFilter filter)
    {
        if (!_added.Contains(filter))
        {
            _added.Add(filter);
        }
    }

    /// <summary>
    /// Writes (and with --log-sync always, fsyncs) the logs this batch of commands added to; called before its replies
    /// are sent, so a batch of pipelined adds costs one write and one fsync per filter (group commit).
    /// </summary>
    public void CommitAdded()
    {
        var unsynced = new List<NamedFilter>();
        WriteAdded(unsynced);
        foreach (NamedFilter filter in unsynced)
        {
            try
            {
                filter.SyncLog();
            }
            catch (ObjectDisposedException)
            {
                // Deleted meanwhile: nothing of it is left to make durable.
            }
        }
    }

    /// <summary>
    /// Writes the logs this batch of commands added to (the page cache: from here they survive SIGKILL); with --log-sync
    /// always, adds to <paramref name="unsynced"/> the filters whose logs must be fsynced before the replies go out,
    /// which the connection hands to the log sync's group commit (Server/LogSyncQueue.cs) instead of waiting on a thread.
    /// </summary>
    public void WriteAdded(List<NamedFilter> unsynced)
    {
        foreach (NamedFilter filter in _added)
        {
            try
            {
                filter.WriteLog();
                if (Options.LogSync == LogSync.Always)
                {
                    unsynced.Add(filter);
                }
            }
            catch (ObjectDisposedException)
            {
                // Deleted meanwhile (DEL, FLUSHALL): nothing of it is left to make durable.
            }
        }

        _added.Clear();
    }

    /// <summary>Between commands: gives up the scratch arrays and arguments a large command grew (<see cref="LargeBuffers"/>).</summary>
    public void TrimScratch()
    {
        _digests = LargeBuffers.Shrink(_digests, InitialItems);
        _answers = LargeBuffers.Shrink(_answers, InitialItems);
        Arguments.Trim();
    }

    public Span<bool> Answers(int count)
    {
        if (_answers.Length < count)
        {
            _answers = new bool[Math.Max(count, Math.Max(InitialItems, _answers.Length * 2))];
        }

        return _answers.AsSpan(0, count);
    }

    /// <summary>
    /// When the connection ends: a restore this client fed last is parked, freeing its descriptors: on the thread pool, since parking fsyncs and
    /// an event loop never waits for the disk. A chunk from another connection meanwhile keeps it open.
    /// </summary>
    public void ParkRestores()
    {
        if (Store.RestoresFedBy(Client.Id) is not { } restores)
        {
            return;
        }

        long id = Client.Id;
        ThreadPool.QueueUserWorkItem(_ =>
        {
            try
            {
                restores.Park(id);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                Metrics.Error(Telemetry.DaemonMetrics.Operation.Storage);
                Telemetry.Log.CommandStorageFailed(Logger, e);
            }
        });
    }
}
