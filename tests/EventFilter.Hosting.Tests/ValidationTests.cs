using EventFilter.Hosting.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace EventFilter.Hosting.Tests;

/// <summary>Every bad value fails start-up with one line naming the key, the value and what is accepted; nothing is created.</summary>
public sealed class ValidationTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData("StreamExistenceFilterSize", "-1", "negative")]
    [InlineData("StreamExistenceFilterSize", "100", "below the minimum")]
    [InlineData("StreamExistenceFilterSize", "300GiB", "above the maximum")]
    [InlineData("StreamExistenceFilterSize", "12XB", "not a size")]
    [InlineData("StreamExistenceFilterSize", "", "not a size")]
    [InlineData("CorruptionThreshold", "0", "out of range")]
    [InlineData("CorruptionThreshold", "1", "out of range")]
    [InlineData("CorruptionThreshold", "1.5", "out of range")]
    [InlineData("CorruptionThreshold", "-0.1", "out of range")]
    [InlineData("CorruptionThreshold", "five percent", "not a number")]
    [InlineData("AllOnesRebuildThreshold", "0", "out of range")]
    [InlineData("AllOnesRebuildThreshold", "1.01", "out of range")]
    [InlineData("AllOnesRebuildThreshold", "one percent", "not a number")]
    [InlineData("CheckpointInterval", "00:00:00", "out of range")]
    [InlineData("CheckpointInterval", "2.00:00:00", "out of range")]
    [InlineData("CheckpointInterval", "soon", "not a time span")]
    [InlineData("CatchUpCheckpointRecords", "0", "out of range")]
    [InlineData("CatchUpCheckpointRecords", "many", "not a whole number")]
    [InlineData("ExpectedStreams", "0", "out of range")]
    [InlineData("ExpectedStreams", "-3", "out of range")]
    [InlineData("ExpectedStreams", "lots", "not a whole number")]
    public async Task A_bad_value_fails_start_with_one_line_and_creates_nothing(string key, string value, string problem)
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs, null, (key, value));
        string message = await StartFailsAsync(host);
        Assert.StartsWith($"StreamExistenceFilter:{key} is '{value}': {problem}", message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_bad_size_on_the_command_line_names_the_switch()
    {
        var builder = TestHosts.Builder(_dir, _log, _logs, ["--stream-existence-filter-size", "12XB"]);
        builder.Services.AddStreamExistenceFilter(o => o.DataDirectory = _dir.Data);
        using IHost host = builder.Build();

        string message = await StartFailsAsync(host);
        Assert.Equal(
            "stream-existence-filter-size is '12XB': not a size. Accepted: 0 to disable the filter, or 128 to 257698037700 bytes (about 240 GiB) written as "
            + ByteSize.AcceptedFormats,
            message);
    }

    [Theory]
    [InlineData("100", "below the minimum of 128 bytes")]
    [InlineData("127", "below the minimum of 128 bytes")]
    [InlineData("300GiB", "above the maximum of 257698037700 bytes (about 240 GiB)")]
    public async Task A_size_out_of_range_names_the_limit_not_the_value(string size, string problem)
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs, null, ("StreamExistenceFilterSize", size));
        string message = await StartFailsAsync(host);
        Assert.Equal($"StreamExistenceFilter:StreamExistenceFilterSize is '{size}': {problem}. Accepted: {OptionErrors.SizeAccepted}", message);
    }

    [Fact]
    public async Task Several_bad_values_are_joined_in_one_line_without_a_stray_full_stop()
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs, null, ("StreamExistenceFilterSize", "100"), ("CorruptionThreshold", "1.5"), ("CheckpointInterval", "soon"));
        OptionsValidationException error = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());
        Assert.Equal(
            "StreamExistenceFilter:CheckpointInterval is 'soon': not a time span. Accepted: a time span [d.]hh:mm:ss from 00:00:01 to 1.00:00:00, e.g. 00:00:30; "
            + $"StreamExistenceFilter:StreamExistenceFilterSize is '100': below the minimum of 128 bytes. Accepted: {OptionErrors.SizeAccepted}; "
            + "StreamExistenceFilter:CorruptionThreshold is '1.5': out of range. Accepted: a fraction strictly between 0 and 1, e.g. 0.05 for 5%",
            error.Message);
        Assert.Equal(3, error.Failures.Count());
    }

    [Fact]
    public async Task A_missing_data_directory_fails_start()
    {
        var builder = TestHosts.Builder(_dir, _log, _logs);
        builder.Services.AddStreamExistenceFilter(_ => { });
        using IHost host = builder.Build();

        string message = await StartFailsAsync(host);
        Assert.StartsWith("DataDirectory is not set: a data directory is required. Accepted: ", message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_data_directory_under_a_file_fails_start()
    {
        string file = Path.Combine(_dir.Path, "a-file");
        await File.WriteAllTextAsync(file, "not a directory");
        string message = await StartFailsWithDirectoryAsync(Path.Combine(file, "data"));
        Assert.Contains($"'{file}' is a file, not a directory", message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_unwritable_data_directory_fails_start()
    {
        // Permission bits do not stop root, which CI runs as; sysfs refuses new files to everyone.
        if (!OperatingSystem.IsLinux() || !Directory.Exists("/sys"))
        {
            return;
        }

        string unwritable = $"/sys/eventfilter-{Guid.NewGuid():N}/data";
        string message = await StartFailsWithDirectoryAsync(unwritable);
        Assert.Contains("files cannot be created in '/sys'", message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.GetDirectoryName(unwritable)));
    }

    private async Task<string> StartFailsWithDirectoryAsync(string directory)
    {
        var builder = TestHosts.Builder(_dir, _log, _logs);
        builder.Services.AddStreamExistenceFilter(o => (o.DataDirectory, o.StreamExistenceFilterSize) = (directory, "1MiB"));
        using IHost host = builder.Build();
        string message = await StartFailsAsync(host);
        Assert.StartsWith($"DataDirectory is '{directory}': ", message, StringComparison.Ordinal);
        return message;
    }

    private async Task<string> StartFailsAsync(IHost host)
    {
        string[] before = _dir.Entries();
        OptionsValidationException error = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());
        Assert.Single(error.Failures);
        Assert.DoesNotContain('\n', error.Message);
        Assert.Contains("Accepted: ", error.Message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(_dir.Data));
        Assert.Equal(before, _dir.Entries());
        return error.Message;
    }
}
