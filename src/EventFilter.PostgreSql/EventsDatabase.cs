using Microsoft.Extensions.Options;
using Npgsql;

namespace EventFilter.PostgreSql;

/// <summary>
/// The connections to the events table's database: made from the options' connection string (and disposed with the
/// host), or the host's own registered <see cref="NpgsqlDataSource"/> (left to the host).
/// </summary>
internal sealed class EventsDatabase : IAsyncDisposable
{
    private readonly bool _owned;
    private bool _stopped;

    public EventsDatabase(IOptions<PostgreSqlStreamLogOptions> options, IServiceProvider services)
    {
        if (options.Value.ConnectionString is { } connection)
        {
            Source = NpgsqlDataSource.Create(connection);
            _owned = true;
        }
        else
        {
            Source = (NpgsqlDataSource?)services.GetService(typeof(NpgsqlDataSource)) ?? throw new PostgreSqlStreamLogStartException(
                PostgreSqlStreamLogStartException.UnreachableExitCode,
                $"AddPostgreSqlStreamLog has no database: set {options.Value.KeyPrefix}{nameof(PostgreSqlStreamLogOptions.ConnectionString)}, or register an NpgsqlDataSource.",
                null);
        }
    }

    public NpgsqlDataSource Source { get; }

    /// <summary>True once the package's service has stopped, after the hosted filter: no append may start then.</summary>
    public bool Stopped => Volatile.Read(ref _stopped);

    /// <summary>The package's service has stopped.</summary>
    public void Stop() => Volatile.Write(ref _stopped, true);

    /// <summary>What an append made after the stop hears.</summary>
    public static InvalidOperationException StoppedError() =>
        new("The events table's log has stopped (the host is shutting down, and the stream-existence filter is closed): this append was not made. Stop what appends before the filter and the log stop: register it after AddStreamExistenceFilter.");

    public ValueTask DisposeAsync() => _owned ? Source.DisposeAsync() : ValueTask.CompletedTask;
}
