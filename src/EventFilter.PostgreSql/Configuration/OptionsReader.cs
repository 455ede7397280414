using System.Globalization;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace EventFilter.PostgreSql.Configuration;

/// <summary>
/// Reads the options from a configuration section as text, so that a value that does not convert becomes a one-line
/// error naming the key and what it accepts (<see cref="OptionsValidator"/>), not the binder's exception.
/// </summary>
internal sealed class OptionsReader(IConfiguration section) : IConfigureOptions<PostgreSqlStreamLogOptions>
{
    public void Configure(PostgreSqlStreamLogOptions options)
    {
        string prefix = section is IConfigurationSection { Path.Length: > 0 } named ? named.Path + ":" : "";
        options.KeyPrefix = prefix;
        options.ConnectionString = section[nameof(options.ConnectionString)] ?? options.ConnectionString;
        options.Schema = section[nameof(options.Schema)] ?? options.Schema;
        options.Table = section[nameof(options.Table)] ?? options.Table;
        options.PositionColumn = section[nameof(options.PositionColumn)] ?? options.PositionColumn;
        options.StreamColumn = section[nameof(options.StreamColumn)] ?? options.StreamColumn;
        options.NotifyChannel = section[nameof(options.NotifyChannel)] ?? options.NotifyChannel;
        if (section[nameof(options.PollInterval)] is { } poll)
        {
            if (TimeSpan.TryParse(poll, CultureInfo.InvariantCulture, out TimeSpan interval))
            {
                options.PollInterval = interval;
            }
            else
            {
                options.BindingErrors.Add($"{prefix}{nameof(options.PollInterval)} is '{poll}', not a time span: {OptionsValidator.PollIntervalAccepted}.");
            }
        }
    }
}
