using EventFilter.Storage;

namespace EventFilter.Tests.Storage;

/// <summary>FileSpace.Reserve: the file grows to cover the range, what was written stays, the rest reads as zeros.</summary>
public sealed class FileSpaceTests
{
    [Fact]
    public void Reserving_grows_the_file_keeps_its_bytes_and_reads_as_zeros_beyond_them()
    {
        using var directory = new TempDirectory();
        string path = Path.Combine(directory.Path, "reserved");
        using (var handle = File.OpenHandle(path, FileMode.CreateNew, FileAccess.ReadWrite))
        {
            RandomAccess.Write(handle, "written"u8, 0);
            FileSpace.Reserve(handle, 0, 100_000);
            Assert.Equal(100_000, RandomAccess.GetLength(handle));
            FileSpace.Reserve(handle, 100_000, 50_000); // a growth, as the daemon's control files do
            Assert.Equal(150_000, RandomAccess.GetLength(handle));
            FileSpace.Reserve(handle, 0, 10); // within the file: nothing changes
            Assert.Equal(150_000, RandomAccess.GetLength(handle));
        }

        byte[] bytes = File.ReadAllBytes(path);
        Assert.Equal("written"u8.ToArray(), bytes[..7]);
        Assert.False(bytes.AsSpan(7).ContainsAnyExcept((byte)0));
    }
}
