using System.Text.Json;
using EventFilter.Format;
using EventFilter.Hosting.Configuration;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// The size has several spellings; the one in the later configuration source wins, whatever its spelling. Pins the
/// failure where a top-level size in appsettings.json beat the section's key from the environment (and started a
/// resize nobody asked for).
/// </summary>
public sealed class PrecedenceTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    // A prefix of the test's own, so that no other test's host sees these variables.
    private readonly string _prefix = $"EVENTFILTER_TEST_{Guid.NewGuid():N}_";
    private readonly List<string> _variables = [];

    public enum Source
    {
        JsonFile,
        EnvironmentVariables,
        CommandLine,
    }

    public enum Spelling
    {
        Section,
        TopLevel,
        ShellVariable,
    }

    public static TheoryData<Source, Spelling, Source, Spelling> Orders()
    {
        var data = new TheoryData<Source, Spelling, Source, Spelling>();
        foreach (Source earlier in Enum.GetValues<Source>())
        {
            foreach (Source later in Enum.GetValues<Source>().Where(s => s != earlier))
            {
                foreach (Spelling earlierSpelling in Enum.GetValues<Spelling>())
                {
                    foreach (Spelling laterSpelling in Enum.GetValues<Spelling>())
                    {
                        data.Add(earlier, earlierSpelling, later, laterSpelling);
                    }
                }
            }
        }

        return data;
    }

    public void Dispose()
    {
        foreach (string name in _variables)
        {
            Environment.SetEnvironmentVariable(name, null);
        }

        _dir.Dispose();
    }

    [Theory]
    [MemberData(nameof(Orders))]
    public void The_later_source_wins_whatever_the_spelling(Source earlier, Spelling earlierSpelling, Source later, Spelling laterSpelling)
    {
        var configuration = new ConfigurationManager();
        Add(configuration, earlier, earlierSpelling, "3MB");
        Add(configuration, later, laterSpelling, "1MB");

        StreamExistenceFilterHostingOptions options = Resolve(configuration);

        Assert.Equal("1MB", options.StreamExistenceFilterSize);
        Assert.Equal(KeyOf(laterSpelling), BindingTrail.Of(options).SizeKey);
    }

    [Theory]
    [InlineData(Source.JsonFile)]
    [InlineData(Source.EnvironmentVariables)]
    [InlineData(Source.CommandLine)]
    public void Within_one_source_the_top_level_key_wins(Source source)
    {
        var configuration = new ConfigurationManager();
        Add(configuration, source, [(Spelling.Section, "3MB"), (Spelling.ShellVariable, "2MB"), (Spelling.TopLevel, "1MB")]);

        Assert.Equal("1MB", Resolve(configuration).StreamExistenceFilterSize);
    }

    [Theory]
    [InlineData(Source.JsonFile)]
    [InlineData(Source.EnvironmentVariables)]
    [InlineData(Source.CommandLine)]
    public void Within_one_source_the_shell_variable_wins_over_the_section(Source source)
    {
        var configuration = new ConfigurationManager();
        Add(configuration, source, [(Spelling.Section, "3MB"), (Spelling.ShellVariable, "2MB")]);

        StreamExistenceFilterHostingOptions options = Resolve(configuration);

        Assert.Equal("2MB", options.StreamExistenceFilterSize);
        Assert.Equal("EVENTFILTER_STREAM_EXISTENCE_FILTER_SIZE", BindingTrail.Of(options).SizeKey);
    }

    [Fact]
    public void A_prefixed_environment_provider_reads_the_shell_variable_after_its_prefix()
    {
        var configuration = new ConfigurationManager();
        _variables.Add(_prefix + "EVENTFILTER_STREAM_EXISTENCE_FILTER_SIZE");
        Environment.SetEnvironmentVariable(_variables[^1], "5MB");
        configuration.AddEnvironmentVariables(_prefix);

        Assert.Equal("5MB", Resolve(configuration).StreamExistenceFilterSize);
    }

    [Fact]
    public void A_bad_shell_variable_is_named_in_the_error()
    {
        var configuration = new ConfigurationManager();
        Add(configuration, Source.EnvironmentVariables, Spelling.ShellVariable, "12XB");

        OptionsValidationException error = Assert.Throws<OptionsValidationException>(() => Resolve(configuration));

        Assert.StartsWith("EVENTFILTER_STREAM_EXISTENCE_FILTER_SIZE is '12XB': not a size.", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_top_level_key_in_the_latest_source_wins_over_code()
    {
        var configuration = new ConfigurationManager();
        Add(configuration, Source.CommandLine, Spelling.TopLevel, "2MiB");

        StreamExistenceFilterHostingOptions options = Resolve(configuration, o => o.StreamExistenceFilterSize = "4MiB");

        Assert.Equal("2MiB", options.StreamExistenceFilterSize);
    }

    [Fact]
    public void Code_after_the_section_wins_over_a_section_key_in_the_latest_source()
    {
        var configuration = new ConfigurationManager();
        Add(configuration, Source.JsonFile, Spelling.TopLevel, "3MB");
        Add(configuration, Source.EnvironmentVariables, Spelling.Section, "1MB");

        StreamExistenceFilterHostingOptions options = Resolve(configuration, o => o.StreamExistenceFilterSize = "4MiB");

        Assert.Equal("4MiB", options.StreamExistenceFilterSize);
    }

    [Fact]
    public async Task A_host_with_the_default_sources_takes_the_environment_over_appsettings_json()
    {
        string json = $$"""{ "stream-existence-filter-size": "3MB", "StreamExistenceFilter": { "DataDirectory": {{JsonSerializer.Serialize(_dir.Data)}} } }""";
        await File.WriteAllTextAsync(_dir.File("appsettings.json"), json);
        var log = new InMemoryStreamLog();
        HostApplicationBuilder builder = TestHosts.Builder(_dir, log, new FakeLogCollector());
        Add(builder.Configuration, Source.EnvironmentVariables, Spelling.Section, "1MB");
        builder.Services.AddStreamExistenceFilter(builder.Configuration.GetSection(TestHosts.Section));
        using IHost host = builder.Build();

        await host.StartAsync();
        await host.Filter().WhenReady;
        await host.StopAsync();

        Assert.Equal(FilterGeometry.FromFilterBits(1_000_000).FileLength, new FileInfo(_dir.FilterPath).Length);
    }

    private StreamExistenceFilterHostingOptions Resolve(ConfigurationManager configuration, Action<StreamExistenceFilterHostingOptions>? code = null)
    {
        var services = new ServiceCollection();
        services.AddSingleton<IConfiguration>(configuration);
        services.AddStreamExistenceFilter(configuration.GetSection(TestHosts.Section));
        services.AddStreamExistenceFilter(o => o.DataDirectory = _dir.Data);
        if (code is not null)
        {
            services.AddStreamExistenceFilter(code);
        }

        using ServiceProvider provider = services.BuildServiceProvider();
        return provider.GetRequiredService<IOptions<StreamExistenceFilterHostingOptions>>().Value;
    }

    private static string KeyOf(Spelling spelling) => spelling switch
    {
        Spelling.Section => "StreamExistenceFilter:StreamExistenceFilterSize",
        Spelling.ShellVariable => "EVENTFILTER_STREAM_EXISTENCE_FILTER_SIZE",
        _ => StreamExistenceFilterHostingOptions.SizeSwitchKey,
    };

    private void Add(IConfigurationBuilder configuration, Source source, Spelling spelling, string size) =>
        Add(configuration, source, [(spelling, size)]);

    private void Add(IConfigurationBuilder configuration, Source source, (Spelling Spelling, string Size)[] values)
    {
        switch (source)
        {
            case Source.JsonFile:
                var root = new Dictionary<string, object>();
                foreach ((Spelling spelling, string size) in values)
                {
                    if (spelling == Spelling.Section)
                    {
                        root[TestHosts.Section] = new Dictionary<string, string> { ["StreamExistenceFilterSize"] = size };
                    }
                    else
                    {
                        root[KeyOf(spelling)] = size;
                    }
                }

                string path = _dir.File($"settings-{Guid.NewGuid():N}.json");
                File.WriteAllText(path, JsonSerializer.Serialize(root));
                configuration.AddJsonFile(path, optional: false, reloadOnChange: false);
                break;
            case Source.EnvironmentVariables:
                string prefix = $"{_prefix}{_variables.Count}_";
                foreach ((Spelling spelling, string size) in values)
                {
                    string name = prefix + KeyOf(spelling).Replace(":", "__", StringComparison.Ordinal);
                    _variables.Add(name);
                    Environment.SetEnvironmentVariable(name, size);
                }

                configuration.AddEnvironmentVariables(prefix);
                break;
            default:
                configuration.AddCommandLine(values.Select(v => $"--{KeyOf(v.Spelling)}={v.Size}").ToArray());
                break;
        }
    }
}
