using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;
using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Protocol;
using EventFilter.Daemon.Server;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The daemon's command table over a store of its own, without a socket: each call is parsed and run as a connection
/// runs it, and its reply decoded (the subset the dump commands answer). For tests that send many large commands.
/// </summary>
public sealed class InProcessCommands : IDisposable
{
    private readonly CommandContext _context;
    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private readonly bool _ownsStore;

    internal InProcessCommands(string dataDirectory, LogSync logSync = LogSync.Always, TimeProvider? time = null)
        : this(new FilterStore(dataDirectory, logSync, new FilterObserver(), NullLogger.Instance, time ?? TimeProvider.System), dataDirectory, logSync)
    {
        Store.Open();
        _ownsStore = true;
    }

    /// <summary>Another connection to <paramref name="store"/>, which the caller opened and disposes.</summary>
    internal InProcessCommands(FilterStore store, string dataDirectory, LogSync logSync)
    {
        Store = store;
        var options = new DaemonOptions { DataDirectory = dataDirectory, LogSync = logSync };
        var health = new DaemonHealth(TimeProvider.System, NullLogger.Instance);
        var metrics = new DaemonMetrics(_services.GetRequiredService<IMeterFactory>(), health, TimeProvider.System);
        var client = new ConnectedClient("", "", unixSocket: true, TimeProvider.System);
        _context = new CommandContext(Store, options, health, metrics, client) { DescriptorLimitWarning = new DescriptorLimitWarning(TimeProvider.System) };
    }

    internal FilterStore Store { get; }

    /// <summary>Runs one command; answers as <see cref="RespClient.Read"/> decodes (string, RespError, long, byte[], object?[]).</summary>
    public object? Call(params object[] arguments)
    {
        Parse(RespClient.Encode(arguments));
        return RunParsed(CommandTable.Identify(_context.Arguments[0]));
    }

    /// <summary>Runs <paramref name="arguments"/> as <paramref name="command"/>, whatever its first argument says.</summary>
    internal object? Run(RespCommand command, params object[] arguments)
    {
        Parse(RespClient.Encode(arguments));
        return RunParsed(command);
    }

    /// <summary>Bytes the connection's path allocates for the command once warm: parse, identify, count its items, run (not the log write).</summary>
    public long AllocatedBytes(object[] arguments)
    {
        byte[] frame = RespClient.Encode(arguments);
        var limits = new RespLimits();
        var progress = new ParseProgress();
        return SteadyAllocations.Of(() =>
        {
            RespParser.TryParse(frame, frame.Length, limits, _context.Arguments, 0, progress, out _, out _);
            _context.Reply.Clear();
            RespCommand command = CommandTable.Identify(_context.Arguments[0]);
            CommandItems.Of(command, _context.Arguments);
            CommandTable.Execute(_context, command);
        });
    }

    private void Parse(byte[] frame) =>
        Assert.Equal(ParseResult.Command, RespParser.TryParse(frame, frame.Length, new RespLimits(), _context.Arguments, 0, out _, out _));

    private object? RunParsed(RespCommand command)
    {
        _context.Reply.Clear();
        CommandTable.Execute(_context, command);
        _context.CommitAdded();
        int position = 0;
        return Decode(_context.Reply.Written.Span, ref position);
    }

    public void Dispose()
    {
        if (_ownsStore)
        {
            Store.Dispose();
        }

        _services.Dispose();
    }

    private static object? Decode(ReadOnlySpan<byte> reply, ref int position)
    {
        byte type = reply[position];
        int end = reply[position..].IndexOf("\r\n"u8) + position;
        string line = Encoding.UTF8.GetString(reply[(position + 1)..end]);
        position = end + 2;
        switch (type)
        {
            case (byte)'+': return line;
            case (byte)'-': return new RespError(line);
            case (byte)':': return long.Parse(line, CultureInfo.InvariantCulture);
            case (byte)'$':
                int length = int.Parse(line, CultureInfo.InvariantCulture);
                if (length < 0)
                {
                    return null;
                }

                byte[] bulk = reply.Slice(position, length).ToArray();
                position += length + 2;
                return bulk;
            case (byte)'*':
                var items = new object?[int.Parse(line, CultureInfo.InvariantCulture)];
                for (int i = 0; i < items.Length; i++)
                {
                    items[i] = Decode(reply, ref position);
                }

                return items;
            default: throw new InvalidDataException($"unexpected reply type '{(char)type}'");
        }
    }
}
