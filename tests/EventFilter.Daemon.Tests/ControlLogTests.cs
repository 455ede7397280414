using EventFilter.Daemon.Filters;
using EventFilter.Durability;
using Microsoft.Extensions.Logging.Abstractions;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The control log (docs/daemon.md, "Durability"): with --log-sync periodic a create or drop is one record and a new
/// filter has no files until its first add or the next tick; the tick applies the records to filters/ and resets the
/// log; a start replays what a crash left, the last record of each name winning; a torn record or one of an earlier
/// epoch ends the records; a damaged header stops the start. In process, with the tick called by the test.
/// </summary>
public sealed class ControlLogTests
{
    private static readonly FilterParameters Small = new(100, 0.01, 2, NonScaling: false);

    [Fact]
    public void Records_round_trip_and_a_torn_record_or_one_of_another_epoch_ends_them()
    {
        var create = new ControlRecord(ControlAction.Create, KeyNames.DirectoryName("users"u8), new FilterParameters(1_000_000, 0.001, 4, NonScaling: true));
        var drop = new ControlRecord(ControlAction.Drop, KeyNames.DirectoryName(new byte[KeyNames.MaxKeyBytes]), default);
        byte[] bytes = new byte[2 * ControlLogFormat.MaxRecordLength];
        int first = ControlLogFormat.WriteRecord(bytes, 7, create);
        int second = ControlLogFormat.WriteRecord(bytes.AsSpan(first), 7, drop);

        Assert.True(ControlLogFormat.TryReadRecord(bytes, 7, out ControlRecord read, out int length));
        Assert.Equal((create, first), (read, length));
        Assert.True(ControlLogFormat.TryReadRecord(bytes.AsSpan(first), 7, out read, out length));
        Assert.Equal((drop, second), (read, length));

        Assert.False(ControlLogFormat.TryReadRecord(bytes, 8, out _, out _)); // written before a reset
        Assert.False(ControlLogFormat.TryReadRecord(bytes.AsSpan(0, first - 1), 7, out _, out _)); // torn
        for (int i = 0; i < first; i++)
        {
            byte[] damaged = [.. bytes.AsSpan(0, first)];
            damaged[i] ^= 0x10;
            Assert.False(ControlLogFormat.TryReadRecord(damaged, 7, out _, out _));
        }
    }

    [Fact]
    public void A_create_makes_no_file_until_its_first_add_or_the_tick_and_the_tick_resets_the_log()
    {
        using var directory = new TempDirectory();
        using FilterStore store = Open(directory.Path);
        NamedFilter empty = store.Create("empty"u8, Small)!;
        NamedFilter added = store.Create("added"u8, Small)!;
        Assert.Empty(Directory.GetDirectories(FiltersOf(directory.Path)));
        Assert.True(new FileInfo(ControlLogOf(directory.Path)).Length > ControlLogFormat.HeaderLength);

        Add(added, 42);
        Assert.True(File.Exists(Path.Combine(FilterPath(directory.Path, "added"), DataLayout.LayerFile(0))));
        Assert.False(Directory.Exists(FilterPath(directory.Path, "empty")));

        store.SyncDirectories();
        Assert.True(empty.IsMaterialized);
        Assert.True(File.Exists(Path.Combine(FilterPath(directory.Path, "empty"), DataLayout.DigestLogFile)));
        Assert.Equal(ControlLogFormat.HeaderLength, new FileInfo(ControlLogOf(directory.Path)).Length);
    }

    [Fact]
    public void Creates_and_drops_between_ticks_touch_no_directory()
    {
        using var directory = new TempDirectory();
        using FilterStore store = Open(directory.Path);
        for (int i = 0; i < 100; i++)
        {
            Assert.NotNull(store.Create("churn"u8, Small));
            Assert.True(store.Delete("churn"u8));
        }

        store.SyncDirectories();
        Assert.Empty(Directory.GetDirectories(FiltersOf(directory.Path)));
        Assert.Equal(0, store.Count);
    }

    [Fact]
    public void A_start_replays_the_records_a_crash_left_the_last_of_each_name_winning()
    {
        using var directory = new TempDirectory();
        using (FilterStore store = Open(directory.Path))
        {
            Add(store.Create("old"u8, Small)!, 1); // durable at the tick below, then dropped in the crashed interval
            Add(store.Create("readded"u8, Small)!, 2);
            store.SyncDirectories();

            store.Create("pending"u8, new FilterParameters(500, 0.001, 4, NonScaling: false));
            Assert.True(store.Delete("old"u8));
            Assert.True(store.Delete("readded"u8));
            Add(store.Create("readded"u8, Small)!, 3);
            store.Create("gone"u8, Small);
            Assert.True(store.Delete("gone"u8));

            // A crash: no tick, no clean stop. The records and the renames stay as they are (the page cache has them).
            CopyDirectory(directory.Path, directory.Path + ".crashed");
        }

        using FilterStore reopened = Open(directory.Path + ".crashed");
        try
        {
            Assert.Equal(["pending", "readded"], reopened.Keys().Select(key => System.Text.Encoding.UTF8.GetString(key)).Order());
            Assert.Equal(new FilterParameters(500, 0.001, 4, NonScaling: false), reopened.Find("pending"u8)!.Parameters);
            Assert.True(MightExist(reopened.Find("readded"u8)!, 3));
            Assert.False(MightExist(reopened.Find("readded"u8)!, 2), "the second incarnation does not inherit the first's items");
            // Replayed durably: each filter has its directory, and the log is reset.
            Assert.True(Directory.Exists(FilterPath(directory.Path + ".crashed", "pending")));
            Assert.Equal(ControlLogFormat.HeaderLength, new FileInfo(ControlLogOf(directory.Path + ".crashed")).Length);
        }
        finally
        {
            reopened.Dispose();
            Directory.Delete(directory.Path + ".crashed", recursive: true);
        }
    }

    [Fact]
    public void A_drop_record_removes_a_directory_a_crash_left_and_a_create_record_brings_back_an_unwritten_one()
    {
        using var directory = new TempDirectory();
        using (FilterStore store = Open(directory.Path))
        {
            Add(store.Create("kept"u8, Small)!, 1);
            store.Create("unwritten"u8, Small);
            store.SyncDirectories();
        }

        // As power loss could leave them: a drop recorded but its rename lost, and a create whose log header never
        // reached the disk (the start drops such a directory) while its record did.
        string control = ControlLogOf(directory.Path);
        using (var log = new FileStream(control, FileMode.Open))
        {
            byte[] header = new byte[ControlLogFormat.HeaderLength];
            log.ReadExactly(header);
            Assert.True(ControlLogFormat.TryReadHeader(header, out uint epoch));
            byte[] record = new byte[2 * ControlLogFormat.MaxRecordLength];
            int length = ControlLogFormat.WriteRecord(record, epoch, new ControlRecord(ControlAction.Drop, KeyNames.DirectoryName("kept"u8), default));
            length += ControlLogFormat.WriteRecord(record.AsSpan(length), epoch, new ControlRecord(ControlAction.Create, KeyNames.DirectoryName("unwritten"u8), Small));
            log.Write(record, 0, length);
        }

        File.WriteAllBytes(Path.Combine(FilterPath(directory.Path, "unwritten"), DataLayout.DigestLogFile), new byte[DigestLogFormat.HeaderLength]);

        using FilterStore reopened = Open(directory.Path);
        Assert.Null(reopened.Find("kept"u8));
        Assert.False(Directory.Exists(FilterPath(directory.Path, "kept")));
        Assert.Equal(Small, reopened.Find("unwritten"u8)!.Parameters);
    }

    [Fact]
    public void A_control_log_header_that_fails_its_checksum_stops_the_open_and_changes_nothing()
    {
        using var directory = new TempDirectory();
        using (FilterStore store = Open(directory.Path))
        {
            Add(store.Create("kept"u8, Small)!, 1);
        }

        byte[] bytes = File.ReadAllBytes(ControlLogOf(directory.Path));
        bytes[9] ^= 0x01;
        File.WriteAllBytes(ControlLogOf(directory.Path), bytes);
        Directory.CreateDirectory(Path.Combine(FiltersOf(directory.Path), "x.1.deleted")); // a leftover the start would remove

        using var store2 = new FilterStore(directory.Path, LogSync.Periodic, new FilterObserver(), NullLogger.Instance);
        InvalidDataException error = Assert.Throws<InvalidDataException>(store2.Open);
        Assert.Contains("control.log", error.Message, StringComparison.Ordinal);
        Assert.True(Directory.Exists(Path.Combine(FiltersOf(directory.Path), "x.1.deleted")));
        Assert.Equal(bytes, File.ReadAllBytes(ControlLogOf(directory.Path)));
    }

    [Fact]
    public void An_unwritten_control_log_reads_as_no_records()
    {
        using var directory = new TempDirectory();
        using (FilterStore store = Open(directory.Path))
        {
            Add(store.Create("kept"u8, Small)!, 1);
        }

        File.WriteAllBytes(ControlLogOf(directory.Path), new byte[ControlLogFormat.HeaderLength + 10]);
        using FilterStore reopened = Open(directory.Path);
        Assert.True(MightExist(reopened.Find("kept"u8)!, 1));
        Assert.True(ControlLogFormat.TryReadHeader(File.ReadAllBytes(ControlLogOf(directory.Path)), out _));
    }

    private static FilterStore Open(string dataDirectory)
    {
        var store = new FilterStore(dataDirectory, LogSync.Periodic, new FilterObserver(), NullLogger.Instance);
        store.Open();
        return store;
    }

    private static void Add(NamedFilter filter, ulong digest)
    {
        Span<bool> added = stackalloc bool[1];
        Assert.Equal(AddOutcome.Done, filter.Add([digest], added, out _));
        filter.WriteLog();
    }

    private static bool MightExist(NamedFilter filter, ulong digest)
    {
        Span<bool> result = stackalloc bool[1];
        Assert.True(filter.MightExist([digest], result));
        return result[0];
    }

    private static void CopyDirectory(string from, string to)
    {
        foreach (string directory in Directory.GetDirectories(from, "*", SearchOption.AllDirectories))
        {
            Directory.CreateDirectory(directory.Replace(from, to, StringComparison.Ordinal));
        }

        Directory.CreateDirectory(to);
        // Lock files are held by the open store; after a crash they would be free, so the copy goes without them.
        foreach (string file in Directory.GetFiles(from, "*", SearchOption.AllDirectories).Where(f => !f.EndsWith(".lock", StringComparison.Ordinal)))
        {
            File.Copy(file, file.Replace(from, to, StringComparison.Ordinal));
        }
    }

    private static string FiltersOf(string dataDirectory) => Path.Combine(dataDirectory, DataLayout.FiltersDirectory);

    private static string ControlLogOf(string dataDirectory) => Path.Combine(dataDirectory, DataLayout.ControlLogFile);

    private static string FilterPath(string dataDirectory, string key) =>
        Path.Combine(FiltersOf(dataDirectory), KeyNames.DirectoryName(System.Text.Encoding.UTF8.GetBytes(key)));
}
