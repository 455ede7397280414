using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace EventFilter.Hosting.Configuration;

/// <summary>
/// Applies the top-level key <c>stream-existence-filter-size</c>, which is what the command-line provider makes of
/// <c>--stream-existence-filter-size 15MB</c>. It runs after every Configure, so the switch wins over the section
/// and over code: an operator can always resize or disable (0) the filter from the command line.
/// </summary>
internal sealed class SizeSwitch(IConfiguration? configuration = null) : IPostConfigureOptions<StreamExistenceFilterHostingOptions>
{
    public void PostConfigure(string? name, StreamExistenceFilterHostingOptions options)
    {
        if (configuration?[StreamExistenceFilterHostingOptions.SizeSwitchKey] is { } size)
        {
            options.StreamExistenceFilterSize = size;
            options.SizeFromSwitch = true;
        }
    }
}
