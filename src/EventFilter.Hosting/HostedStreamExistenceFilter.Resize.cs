using EventFilter.Hosting.Telemetry;

namespace EventFilter.Hosting;

/// <summary>The resize as a host shows it: sizes from the filter, progress from the latest catch-up report of the new file.</summary>
internal sealed partial class HostedStreamExistenceFilter : IFilterResizeStatus
{
    /// <inheritdoc/>
    public FilterResizeProgress? Resize
    {
        get
        {
            if (!_filter.IsResizing)
            {
                return null;
            }

            // While resizing, a report about any other file than the serving one is about the file being built.
            CatchUpProgress? building = _observer.LastProgress is { } last && last.Path != _filterOptions.FilterPath ? last : null;
            return new FilterResizeProgress(_filter.ServingSizeBytes, _filterOptions.SizeBytes, building?.Percent ?? 0, building?.EstimatedRemaining);
        }
    }
}
