using System.Reflection;
using System.Runtime.CompilerServices;

namespace EventFilter.Daemon;

/// <summary>
/// Loads, at start, every assembly the daemon's own assemblies refer to. The runtime loads an assembly the first time
/// code that names it is compiled, and a load needs descriptors: one first needed while descriptors are exhausted fails,
/// and a type initializer that failed so fails for good (INFO, for one, closed every connection until a restart). Loaded
/// here, they are counted by the start's descriptor check, and nothing a command runs later loads one. NativeAOT loads
/// none. See docs/daemon.md, "Starting and stopping".
/// </summary>
internal static class AssemblyPreload
{
    /// <summary>Null when every referenced assembly loaded; else the refusal, naming the one that did not and why.</summary>
    [System.Diagnostics.CodeAnalysis.UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "Runs only under the JIT, where nothing is trimmed; a trimmed NativeAOT build returns first.")]
    public static string? Run()
    {
        if (!RuntimeFeature.IsDynamicCodeSupported)
        {
            return null;
        }

        Assembly[] ours = [typeof(AssemblyPreload).Assembly, typeof(StreamExistenceFilter).Assembly, typeof(Formats.DataLayout).Assembly];
        foreach (AssemblyName name in ours.SelectMany(assembly => assembly.GetReferencedAssemblies()))
        {
            try
            {
                Assembly.Load(name);
            }
            catch (Exception e) when (e is FileLoadException or FileNotFoundException or BadImageFormatException)
            {
                return $"loading {name.Name} failed ({e.Message.Split('\n')[0].Trim()}); with too few file descriptors (RLIMIT_NOFILE {Filters.ProcessLimits.CurrentDescriptorLimit()}) the runtime cannot load the daemon: raise it (LimitNOFILE= in the systemd unit, ulimit -n in a shell).";
            }
        }

        return null;
    }
}
