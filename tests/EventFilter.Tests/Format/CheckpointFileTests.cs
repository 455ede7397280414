
using EventFilter.Errors;

namespace EventFilter.Tests.Format;

public sealed class CheckpointFileTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void A_written_checkpoint_reads_back()
    {
        string path = _dir.File("f.checkpoint");
        var checkpoint = new Checkpoint(123_456_789, Guid.NewGuid());
        CheckpointFile.Write(path, checkpoint);
        Assert.Equivalent(checkpoint, CheckpointFile.TryRead(path), strict: true);
        Assert.False(File.Exists(path + ".tmp"));
    }

    [Fact]
    public void A_missing_checkpoint_is_no_position()
    {
        Assert.Null(CheckpointFile.TryRead(_dir.File("none.checkpoint")));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(10)]
    [InlineData(65)]
    public void A_checkpoint_of_the_wrong_length_is_invalid(int length)
    {
        string path = _dir.File("f.checkpoint");
        File.WriteAllBytes(path, new byte[length]);
        Assert.Throws<InvalidCheckpointException>(() => CheckpointFile.TryRead(path));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(17)]
    [InlineData(30)]
    [InlineData(61)]
    public void A_flipped_byte_makes_the_checkpoint_invalid(int offset)
    {
        string path = _dir.File("f.checkpoint");
        CheckpointFile.Write(path, new Checkpoint(42, Guid.NewGuid()));
        byte[] bytes = File.ReadAllBytes(path);
        bytes[offset] ^= 0x10;
        File.WriteAllBytes(path, bytes);
        var error = Assert.Throws<InvalidCheckpointException>(() => CheckpointFile.TryRead(path));
        Assert.Contains(path, error.Message, StringComparison.Ordinal);
    }
}
