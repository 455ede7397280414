using Xunit;

namespace EventFilter.Testing;

/// <summary>
/// A test that mounts a tmpfs, which only root may do. Run by anyone else it is reported as skipped, with the reason,
/// instead of failing on `mount`. xunit 2.9 has no Assert.Skip (that came with v3), so the skip is decided here,
/// when the test is discovered.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class RootFactAttribute : FactAttribute
{
    public RootFactAttribute()
    {
        if (!IsRoot)
        {
            Skip = "needs root: it mounts a small tmpfs to make a real full or read-only disk (run the tests as root, as CI does)";
        }
    }

    /// <summary>The effective user id from /proc/self/status ("Uid: real effective saved fs") is 0.</summary>
    public static bool IsRoot { get; } = File.ReadLines("/proc/self/status")
        .FirstOrDefault(l => l.StartsWith("Uid:", StringComparison.Ordinal))?
        .Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries) is [_, _, "0", ..];
}
