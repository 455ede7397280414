using System.Runtime.CompilerServices;

namespace EventFilter.Hosting.Configuration;

/// <summary>
/// Where the values of one options instance came from, so that an error names the key the operator wrote: the section's
/// path, whether a section was read (its size key then takes part in the order of sources), the top-level key the size
/// came from, and the values that did not parse. Kept beside the instance rather than on it, which holds settings only;
/// each instance the options system builds gets a fresh trail, as it would get fresh fields.
/// </summary>
internal sealed class BindingTrail
{
    private static readonly ConditionalWeakTable<StreamExistenceFilterHostingOptions, BindingTrail> Trails = [];

    /// <summary>The configuration path of the bound section plus ':'; empty when none was read.</summary>
    public string KeyPrefix { get; set; } = "";

    /// <summary>True when a configuration section was read, so that its size key takes part in the order of sources.</summary>
    public bool SectionRead { get; set; }

    /// <summary>The top-level key the size came from, or null when it came from the section or code.</summary>
    public string? SizeSwitchUsed { get; set; }

    /// <summary>Values in configuration that did not parse, each already a complete one-line error.</summary>
    public List<string> ReadErrors { get; } = [];

    /// <summary>The key the size was given under, as the operator wrote it.</summary>
    public string SizeKey => SizeSwitchUsed ?? KeyOf(nameof(StreamExistenceFilterHostingOptions.StreamExistenceFilterSize));

    /// <summary>The trail of <paramref name="options"/>, created empty on first use.</summary>
    public static BindingTrail Of(StreamExistenceFilterHostingOptions options) => Trails.GetOrCreateValue(options);

    /// <summary>The configuration key of one of the options' properties.</summary>
    public string KeyOf(string property) => KeyPrefix + property;
}
