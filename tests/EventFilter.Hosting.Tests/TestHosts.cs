using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting.Tests;

/// <summary>Builds hosts the way a server's Program.cs does: Host.CreateApplicationBuilder(args), its log in DI, AddStreamExistenceFilter.</summary>
public static class TestHosts
{
    public const string Section = StreamExistenceFilterHostingOptions.SectionName;

    /// <summary>The standard builder with its default sources (appsettings.json in the directory, environment, command line).</summary>
    public static HostApplicationBuilder Builder(TempDirectory dir, InMemoryStreamLog log, FakeLogCollector logs, string[]? args = null, TimeProvider? time = null)
    {
        var settings = new HostApplicationBuilderSettings
        {
            Args = args ?? [],
            ContentRootPath = dir.Path,
            EnvironmentName = Environments.Production,
            Configuration = new ConfigurationManager(),
        };

        // No file watcher on the test's directory.
        settings.Configuration.AddInMemoryCollection([new("hostBuilder:reloadConfigOnChange", "false")]);
        HostApplicationBuilder builder = Host.CreateApplicationBuilder(settings);
        builder.Logging.ClearProviders();
        builder.Logging.SetMinimumLevel(LogLevel.Debug);
        builder.Logging.AddProvider(new FakeLoggerProvider(logs));
        builder.Services.AddSingleton<IStreamNameLog>(log);
        if (time is not null)
        {
            builder.Services.AddSingleton(time);
        }

        return builder;
    }

    /// <summary>A host whose filter settings come from an in-memory section: the data directory plus <paramref name="settings"/>.</summary>
    public static IHost Build(TempDirectory dir, InMemoryStreamLog log, FakeLogCollector logs, TimeProvider? time = null, params (string Key, string Value)[] settings)
    {
        HostApplicationBuilder builder = Builder(dir, log, logs, time: time);
        builder.Configuration.AddInMemoryCollection([new($"{Section}:DataDirectory", dir.Data), new($"{Section}:StreamExistenceFilterSize", "1MiB")]);
        builder.Configuration.AddInMemoryCollection(settings.Select(s => new KeyValuePair<string, string?>($"{Section}:{s.Key}", s.Value)));
        builder.Services.AddStreamExistenceFilter(builder.Configuration.GetSection(Section));
        builder.Services.AddHealthChecks().AddStreamExistenceFilterCheck();
        return builder.Build();
    }

    /// <summary>The filter's entry in a health report, as a readiness endpoint would see it.</summary>
    public static async Task<HealthReportEntry> HealthAsync(this IHost host)
    {
        HealthReport report = await host.Services.GetRequiredService<HealthCheckService>().CheckHealthAsync();
        return report.Entries[StreamExistenceFilterHealthChecksBuilderExtensions.DefaultName];
    }

    public static IStreamExistenceFilter Filter(this IHost host) => host.Services.GetRequiredService<IStreamExistenceFilter>();
}
