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

    public ValueTask DisposeAsync() => _owned ? Source.DisposeAsync() : ValueTask.CompletedTask;
}
