using EventFilter.Errors;
using EventFilter.Format;
using Xunit.Abstractions;

namespace EventFilter.Tests.Reliability;

/// <summary>
/// Randomised headers and checkpoints with fixed seeds: each is accepted as consistent or rejected with the typed
/// error; never another exception, never a hang. Mutations re-seal the checksum half the time, to reach field checks.
/// </summary>
public sealed class BadInputFuzzTests(ITestOutputHelper output) : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Random_headers_are_accepted_consistently_or_rejected_with_a_typed_error()
    {
        int cases = ReliabilityScale.Pick(ci: 20_000, full: 200_000);
        var random = new Random(64);
        var valid = new byte[64];
        new FilterHeader(1, 6, 1 << 20, (1u << 14) - 1, 7, Guid.NewGuid()).WriteTo(valid);
        int rejected = 0;
        for (int c = 0; c < cases; c++)
        {
            byte[] candidate = Mutate(valid, random);
            try
            {
                FilterHeader header = FilterHeader.Read(candidate, "fuzz");
                Assert.Equal(header.LineCount, header.Geometry.LineCount);
                Assert.InRange(header.K, 1, FilterHeader.MaxK);
            }
            catch (InvalidFilterHeaderException)
            {
                rejected++;
            }
        }

        output.WriteLine($"headers: {cases:N0} cases, {rejected:N0} rejected");
        Assert.InRange(rejected, cases / 2, cases);
    }

    [Fact]
    public void Random_checkpoints_are_accepted_or_rejected_with_a_typed_error()
    {
        int cases = ReliabilityScale.Pick(ci: 20_000, full: 200_000);
        var random = new Random(65);
        var valid = new byte[64];
        new Checkpoint(123_456, Guid.NewGuid()).WriteTo(valid);
        int rejected = 0;
        for (int c = 0; c < cases; c++)
        {
            try
            {
                Checkpoint checkpoint = Checkpoint.Read(Mutate(valid, random), "fuzz");
                Assert.True(checkpoint.Position >= 0);
            }
            catch (InvalidCheckpointException)
            {
                rejected++;
            }
        }

        output.WriteLine($"checkpoints: {cases:N0} cases, {rejected:N0} rejected");
        Assert.InRange(rejected, cases / 2, cases);
    }

    [Fact]
    public void Random_filter_files_open_or_fail_with_a_filter_file_error()
    {
        int cases = ReliabilityScale.Pick(ci: 300, full: 5_000);
        var random = new Random(66);
        string path = _dir.File("fuzz.filter");
        FilterFile.Create(path, new FilterFileOptions { SizeBytes = 64 * 64 }).Dispose();
        byte[] valid = File.ReadAllBytes(path);
        for (int c = 0; c < cases; c++)
        {
            byte[] candidate = Mutate(valid, random);
            File.WriteAllBytes(path, candidate);
            try
            {
                using FilterFile opened = FilterFile.Open(path, new FilterFileOptions { SizeBytes = 64 * 64 });
                Assert.Equal((long)candidate.Length, (opened.LineCount + 1L) * 64);
            }
            catch (FilterFileException)
            {
                // Rejected with the typed error: the expected outcome for most mutations.
            }
        }
    }

    private static byte[] Mutate(byte[] valid, Random random)
    {
        byte[] candidate;
        switch (random.Next(5))
        {
            case 0:
                candidate = new byte[random.Next(0, valid.Length * 2)];
                random.NextBytes(candidate);
                return candidate;
            case 1:
                return valid[..random.Next(0, valid.Length)];
            default:
                candidate = (byte[])valid.Clone();
                for (int flips = random.Next(1, 9); flips > 0; flips--)
                {
                    candidate[random.Next(Math.Min(candidate.Length, 64))] = (byte)random.Next(256);
                }

                if (random.Next(2) == 0)
                {
                    // Re-seal, so the mutation reaches the field checks behind the checksum.
                    BitConverter.TryWriteBytes(candidate.AsSpan(60), LineChecksum.Compute(candidate));
                }

                return candidate;
        }
    }
}
