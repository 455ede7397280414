using Microsoft.Win32.SafeHandles;

namespace EventFilter.Daemon.Server;

/// <summary>
/// One descriptor held in reserve (/dev/null, opened for nothing) by an accept loop: when the process is out of
/// descriptors, releasing it lets one accept succeed, so that the waiting client is told why instead of hanging in the
/// backlog, and it is taken again at once. See docs/daemon.md, "Connections".
/// </summary>
internal sealed class DescriptorReserve : IDisposable
{
    private SafeFileHandle? _held;

    public DescriptorReserve() => TryTake();

    /// <summary>Takes the reserve if it is not held; false when no descriptor was free for it. True when it was held.</summary>
    public bool TryTake()
    {
        if (_held is null)
        {
            try
            {
                _held = File.OpenHandle("/dev/null");
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                // Still out of descriptors: taken at the next refusal, or the next accept that succeeds.
            }
        }

        return _held is not null;
    }

    /// <summary>Frees the reserve for one accept; false when it was not held.</summary>
    public bool Release()
    {
        if (_held is not { } held)
        {
            return false;
        }

        _held = null;
        held.Dispose();
        return true;
    }

    public void Dispose() => Release();
}
