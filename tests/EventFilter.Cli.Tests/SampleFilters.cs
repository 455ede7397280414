using EventFilter.Format;

namespace EventFilter.Cli.Tests;

/// <summary>
/// The files most tests read, built once per test class: a healthy filter, one with ~1% of lines corrupted (below the
/// 5% threshold), one with ~10% (above it), a garbage file and a truncated one. Tests that write copy them first.
/// </summary>
public sealed class SampleFilters : IDisposable
{
    public const int Names = 50_000;

    /// <summary>16 bits per name: few enough false positives that absent names mostly answer "definitely not".</summary>
    public const long SizeBytes = 100_000;

    public const long CheckpointPosition = 4242;

    private readonly TempDirectory _directory = new();

    public SampleFilters()
    {
        Healthy = FilterFiles.Healthy(_directory.File("healthy.filter"), Names, SizeBytes, CheckpointPosition);
        Light = FilterFiles.CopyTo(Healthy, _directory.File("light.filter"));
        LightBadLines = FilterFiles.Corrupt(Light, 0.01);
        Heavy = FilterFiles.CopyTo(Healthy, _directory.File("heavy.filter"));
        HeavyBadLines = FilterFiles.Corrupt(Heavy, 0.10);
        Garbage = FilterFiles.Garbage(_directory.File("garbage.filter"));
        Truncated = FilterFiles.CopyTo(Healthy, _directory.File("truncated.filter"));
        using (var stream = new FileStream(Truncated, FileMode.Open, FileAccess.Write))
        {
            stream.SetLength(stream.Length / 2);
        }
    }

    public static long Lines => FilterGeometry.FromSize(SizeBytes).LineCount;

    public string Healthy { get; }

    public string Light { get; }

    public long[] LightBadLines { get; }

    public string Heavy { get; }

    public long[] HeavyBadLines { get; }

    public string Garbage { get; }

    public string Truncated { get; }

    /// <summary>A path in this fixture's directory for a test's own file.</summary>
    public string Scratch(string name) => _directory.File(name);

    public void Dispose() => _directory.Dispose();
}
