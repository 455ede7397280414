using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace EventFilter.Hosting.Configuration;

/// <summary>
/// Applies the size when the latest configuration source that holds one spells it as a top-level key,
/// <c>stream-existence-filter-size</c> (what the command-line provider makes of <c>--stream-existence-filter-size 15MB</c>)
/// or the environment variable <c>EVENTFILTER_STREAM_EXISTENCE_FILTER_SIZE</c>, rather than as the section's key. Later sources win whatever the spelling, as for any key in .NET; a top-level
/// key that wins this way also wins over code, since this runs after every Configure.
/// </summary>
internal sealed class SizeSwitch(IConfiguration? configuration = null) : IPostConfigureOptions<StreamExistenceFilterHostingOptions>
{
    public void PostConfigure(string? name, StreamExistenceFilterHostingOptions options)
    {
        if (configuration is null)
        {
            return;
        }

        BindingTrail trail = BindingTrail.Of(options);
        string? sectionKey = trail.SectionRead ? trail.KeyOf(nameof(options.StreamExistenceFilterSize)) : null;
        if (Latest(configuration, sectionKey) is ({ } key, { } size) && !string.Equals(key, sectionKey, StringComparison.OrdinalIgnoreCase))
        {
            options.StreamExistenceFilterSize = size;
            trail.SizeSwitchUsed = key;
        }
    }

    /// <summary>The key and value of the size in the latest source that has one; within a source, in the order of <c>keys</c>.</summary>
    private static (string Key, string Value)? Latest(IConfiguration configuration, string? sectionKey)
    {
        string[] keys = [StreamExistenceFilterHostingOptions.SizeSwitchKey, StreamExistenceFilterHostingOptions.SizeVariableKey, .. sectionKey is null ? [] : new[] { sectionKey }];
        if (configuration is not IConfigurationRoot root)
        {
            // No sources to order: a top-level key wins.
            return keys[..2].Select(key => (Key: key, Value: configuration[key])).FirstOrDefault(found => found.Value is not null) is ({ } key, { } value) ? (key, value) : null;
        }

        foreach (IConfigurationProvider provider in root.Providers.Reverse())
        {
            foreach (string key in keys)
            {
                if (provider.TryGet(key, out string? value) && value is not null)
                {
                    return (key, value);
                }
            }
        }

        return null;
    }
}
