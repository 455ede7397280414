using Microsoft.Extensions.Options;
using Npgsql;

namespace EventFilter.PostgreSql.Configuration;

/// <summary>Checks the options when the host starts, before anything connects: each failure one line naming the key.</summary>
internal sealed class OptionsValidator : IValidateOptions<PostgreSqlStreamLogOptions>
{
    public const string PollIntervalAccepted = "a time span hh:mm:ss[.fff] from 00:00:00.010 to 00:01:00, e.g. 00:00:01";

    // PostgreSQL truncates longer identifiers silently (NAMEDATALEN - 1 bytes): the name asked for would not be the one used.
    private const int MaxIdentifierBytes = 63;

    public ValidateOptionsResult Validate(string? name, PostgreSqlStreamLogOptions options)
    {
        List<string> failures = [.. options.BindingErrors];
        string prefix = options.KeyPrefix;
        Identifier(failures, prefix, nameof(options.Schema), options.Schema, required: true);
        Identifier(failures, prefix, nameof(options.Table), options.Table, required: true);
        Identifier(failures, prefix, nameof(options.PositionColumn), options.PositionColumn, required: true);
        Identifier(failures, prefix, nameof(options.StreamColumn), options.StreamColumn, required: true);
        Identifier(failures, prefix, nameof(options.NotifyChannel), options.Channel, required: false);
        if (options.PollInterval < TimeSpan.FromMilliseconds(10) || options.PollInterval > TimeSpan.FromMinutes(1))
        {
            failures.Add($"{prefix}{nameof(options.PollInterval)} is {options.PollInterval:c}: {PollIntervalAccepted}.");
        }

        if (options.ConnectionString is { } connection)
        {
            try
            {
                _ = new NpgsqlConnectionStringBuilder(connection);
            }
            catch (ArgumentException invalid)
            {
                failures.Add($"{prefix}{nameof(options.ConnectionString)} is not a usable connection string: {invalid.Message}");
            }
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static void Identifier(List<string> failures, string prefix, string key, string? value, bool required)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            if (required)
            {
                failures.Add($"{prefix}{key} is empty: name {key switch { "Schema" => "the events table's schema", "Table" => "the events table", "PositionColumn" => "its position column", _ => "its stream column" }}.");
            }
        }
        else if (System.Text.Encoding.UTF8.GetByteCount(value) > MaxIdentifierBytes)
        {
            failures.Add($"{prefix}{key} '{value}' is longer than PostgreSQL's {MaxIdentifierBytes} bytes for a name.");
        }
    }
}
