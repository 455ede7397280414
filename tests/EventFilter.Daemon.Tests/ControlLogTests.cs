using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;
using Microsoft.Extensions.Logging.Abstractions;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The control log (docs/daemon-design.md, "Durability"): with --log-sync periodic a create or drop is one record and a new
/// filter has no files until its first add; a tick switches control files, carrying pending filters' creates over,
/// and empties the file it left; a start replays what a crash left, the last record of each name winning; a torn
/// record or one of an earlier epoch ends a file's records; a damaged header stops the start. In process, with the
/// tick called by the test.
/// </summary>
public sealed class ControlLogTests
{
    private static readonly FilterParameters Small = new(100, 0.01, 2, NonScaling: false);

    [Fact]
    public void Records_round_trip_and_a_torn_record_or_one_of_another_epoch_ends_them()
    {
        var create = new ControlRecord(ControlAction.Create, KeyNames.DirectoryName("users"u8), new FilterParameters(1_000_000, 0.001, 4, NonScaling: true));
        var drop = new ControlRecord(ControlAction.Drop, KeyNames.DirectoryName(new byte[KeyNames.MaxHexKeyBytes]), default);
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
    public void A_create_makes_no_file_until_the_tick_after_its_first_add_and_a_tick_carries_it_to_the_other_control_file()
    {
        using var directory = new TempDirectory();
        using FilterStore store = Open(directory.Path);
        NamedFilter empty = store.Create("empty"u8, Small)!;
        NamedFilter added = store.Create("added"u8, Small)!;
        Assert.Empty(Directory.GetDirectories(FiltersOf(directory.Path)));
        Assert.Equal(["create empty", "create added"], Describe(ControlRecords(directory.Path)));

        // The first item is held: a record in the control log, no file, and lookups answer from memory.
        Add(added, 42);
        Assert.Empty(Directory.GetDirectories(FiltersOf(directory.Path)));
        Assert.Equal(["create empty", "create added", "items added"], Describe(ControlRecords(directory.Path)));
        Assert.True(MightExist(added, 42));

        store.SyncDirectories();
        Assert.True(File.Exists(Path.Combine(FilterPath(directory.Path, "added"), DataLayout.LayerFile(0))));
        Assert.True(MightExist(added, 42));
        Assert.Equal(1, added.Count);
        Assert.False(empty.IsMaterialized);
        Assert.False(Directory.Exists(FilterPath(directory.Path, "empty")));
        Assert.Equal(["create empty"], Describe(ControlRecords(directory.Path))); // the file left is emptied

        // A tick after nothing happened changes nothing: the carried create stays where it is, with no fsync.
        string[] before = [.. DataLayout.ControlLogFiles.Select(file => Convert.ToHexString(File.ReadAllBytes(Path.Combine(directory.Path, file))))];
        store.SyncDirectories();
        Assert.Equal(before, DataLayout.ControlLogFiles.Select(file => Convert.ToHexString(File.ReadAllBytes(Path.Combine(directory.Path, file)))));
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
            CrashCopy.Make(directory.Path, directory.Path + ".crashed");
        }

        using FilterStore reopened = Open(directory.Path + ".crashed");
        try
        {
            Assert.Equal(["pending", "readded"], reopened.Keys().Select(key => System.Text.Encoding.UTF8.GetString(key)).Order());
            Assert.Equal(new FilterParameters(500, 0.001, 4, NonScaling: false), reopened.Find("pending"u8)!.Parameters);
            Assert.True(MightExist(reopened.Find("readded"u8)!, 3));
            Assert.False(MightExist(reopened.Find("readded"u8)!, 2), "the second incarnation does not inherit the first's items");
            // After the replay, the pending filter is the control log's only record, carried to the active file.
            Assert.False(Directory.Exists(FilterPath(directory.Path + ".crashed", "pending")));
            Assert.Equal(["create pending"], Describe(ControlRecords(directory.Path + ".crashed")));
        }
        finally
        {
            reopened.Dispose();
            Directory.Delete(directory.Path + ".crashed", recursive: true);
        }
    }

    [Fact]
    public void Records_past_the_mapped_space_grow_the_file_and_survive_a_crash_and_a_tick_clears_them()
    {
        using var directory = new TempDirectory();
        string crashed = directory.Path + ".crashed";
        const int Filters = 600; // keys of 100 bytes, the longest named by their hex: about 250 bytes a record, 145 KiB in all, past the first 64 KiB
        try
        {
            using (FilterStore store = Open(directory.Path))
            {
                for (int i = 0; i < Filters; i++)
                {
                    store.Create(LongKey(i), Small);
                }

                Assert.True(store.Delete(LongKey(0)));
                CrashCopy.Make(directory.Path, crashed);
            }

            using FilterStore reopened = Open(crashed);
            Assert.Equal(Filters - 1, reopened.Count);
            Assert.Null(reopened.Find(LongKey(0)));
            Assert.NotNull(reopened.Find(LongKey(Filters - 1)));
            Assert.True(reopened.Delete(LongKey(1)));
            reopened.SyncDirectories(); // carries the 598 pending creates into one file and clears the other
            Assert.Equal(Filters - 2, ControlRecords(crashed).Count);
        }
        finally
        {
            if (Directory.Exists(crashed))
            {
                Directory.Delete(crashed, recursive: true);
            }
        }
    }

    [Fact]
    public void A_control_file_torn_at_any_byte_opens_with_the_records_before_the_tear()
    {
        using var directory = new TempDirectory();
        using (FilterStore store = Open(directory.Path))
        {
            foreach (string key in new[] { "a", "bb", "ccc" })
            {
                store.Create(System.Text.Encoding.ASCII.GetBytes(key), Small);
            }

            CrashCopy.Make(directory.Path, directory.Path + ".whole");
        }

        string whole = directory.Path + ".whole";
        try
        {
            (string active, uint epoch) = ActiveControlFile(whole);
            byte[] bytes = File.ReadAllBytes(active);
            int end = EndOfRecords(bytes);
            int[] recordEnds = [.. RecordEnds(bytes, epoch)];
            Assert.Equal(3, recordEnds.Length);
            for (int tear = ControlLogFormat.HeaderLength; tear <= end; tear++)
            {
                // What a write cut short leaves: the bytes before the tear, zeros (the reserved space) after it.
                string torn = whole + ".torn";
                CrashCopy.Make(whole, torn);
                byte[] cut = (byte[])bytes.Clone();
                Array.Clear(cut, tear, cut.Length - tear);
                File.WriteAllBytes(Path.Combine(torn, Path.GetFileName(active)), cut);
                using (FilterStore reopened = Open(torn))
                {
                    Assert.Equal(recordEnds.Count(recordEnd => recordEnd <= tear), reopened.Count);
                }

                Directory.Delete(torn, recursive: true);
            }
        }
        finally
        {
            Directory.Delete(whole, recursive: true);
        }
    }

    [Fact]
    public void A_drop_record_removes_a_directory_a_crash_left_and_a_create_record_brings_back_an_unwritten_one()
    {
        using var directory = new TempDirectory();
        using (FilterStore store = Open(directory.Path))
        {
            Add(store.Create("kept"u8, Small)!, 1);
            Add(store.Create("unwritten"u8, Small)!, 2);
            store.SyncDirectories();
        }

        // As power loss could leave them: a drop recorded but its rename lost, and a create whose log header never
        // reached the disk (the start drops such a directory) while its record did. Appended to the active file.
        (string control, uint epoch) = ActiveControlFile(directory.Path);
        byte[] record = new byte[2 * ControlLogFormat.MaxRecordLength];
        int length = ControlLogFormat.WriteRecord(record, epoch, new ControlRecord(ControlAction.Drop, KeyNames.DirectoryName("kept"u8), default));
        length += ControlLogFormat.WriteRecord(record.AsSpan(length), epoch, new ControlRecord(ControlAction.Create, KeyNames.DirectoryName("unwritten"u8), Small));
        using (var log = new FileStream(control, FileMode.Open))
        {
            log.Position = EndOfRecords(File.ReadAllBytes(control)); // the zeros after the records end them
            log.Write(record, 0, length);
        }

        File.WriteAllBytes(Path.Combine(FilterPath(directory.Path, "unwritten"), DataLayout.DigestLogFile), new byte[DigestLogFormat.HeaderLength]);

        using FilterStore reopened = Open(directory.Path);
        Assert.Null(reopened.Find("kept"u8));
        Assert.False(Directory.Exists(FilterPath(directory.Path, "kept")));
        Assert.Equal(Small, reopened.Find("unwritten"u8)!.Parameters);
    }

    [Fact]
    public void A_start_with_log_sync_always_gives_pending_filters_their_files_and_leaves_no_record()
    {
        using var directory = new TempDirectory();
        using (FilterStore store = Open(directory.Path))
        {
            store.Create("pending"u8, Small);
        }

        using (var always = new FilterStore(directory.Path, LogSync.Always, new FilterObserver(), NullLogger.Instance, TimeProvider.System))
        {
            always.Open();
            Assert.True(File.Exists(Path.Combine(FilterPath(directory.Path, "pending"), DataLayout.DigestLogFile)));
            Assert.Empty(ControlRecords(directory.Path));
            Assert.True(always.Delete("pending"u8));
            Assert.Empty(ControlRecords(directory.Path)); // with always, a drop is the fsynced rename, not a record
        }

        using FilterStore reopened = Open(directory.Path);
        Assert.Equal(0, reopened.Count);
    }

    [Fact]
    public void A_control_log_header_that_fails_its_checksum_stops_the_open_and_changes_nothing()
    {
        using var directory = new TempDirectory();
        using (FilterStore store = Open(directory.Path))
        {
            Add(store.Create("kept"u8, Small)!, 1);
        }

        string control = ActiveControlFile(directory.Path).Path;
        byte[] bytes = File.ReadAllBytes(control);
        bytes[9] ^= 0x01;
        File.WriteAllBytes(control, bytes);
        Directory.CreateDirectory(Path.Combine(FiltersOf(directory.Path), "x.1.deleted")); // a leftover the start would remove

        using var store2 = new FilterStore(directory.Path, LogSync.Periodic, new FilterObserver(), NullLogger.Instance, TimeProvider.System);
        InvalidDataException error = Assert.Throws<InvalidDataException>(store2.Open);
        Assert.Contains(Path.GetFileName(control), error.Message, StringComparison.Ordinal);
        Assert.True(Directory.Exists(Path.Combine(FiltersOf(directory.Path), "x.1.deleted")));
        Assert.Equal(bytes, File.ReadAllBytes(control));
    }

    [Fact]
    public void An_unwritten_control_log_reads_as_no_records()
    {
        using var directory = new TempDirectory();
        using (FilterStore store = Open(directory.Path))
        {
            Add(store.Create("kept"u8, Small)!, 1);
        }

        foreach (string file in DataLayout.ControlLogFiles)
        {
            File.WriteAllBytes(Path.Combine(directory.Path, file), new byte[ControlLogFormat.HeaderLength + 10]);
        }

        using FilterStore reopened = Open(directory.Path);
        Assert.True(MightExist(reopened.Find("kept"u8)!, 1));
        Assert.NotNull(reopened.Create("new"u8, Small));
        Assert.Equal(["create new"], Describe(ControlRecords(directory.Path)));
    }

    private static byte[] LongKey(int i) => System.Text.Encoding.ASCII.GetBytes(i.ToString("D" + KeyNames.MaxHexKeyBytes, System.Globalization.CultureInfo.InvariantCulture));

    internal static FilterStore Open(string dataDirectory)
    {
        var store = new FilterStore(dataDirectory, LogSync.Periodic, new FilterObserver(), NullLogger.Instance, TimeProvider.System);
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

    private static string FiltersOf(string dataDirectory) => Path.Combine(dataDirectory, DataLayout.FiltersDirectory);

    /// <summary>The records of both control files, the older epoch first, read as the report reads them.</summary>
    internal static List<ControlRecord> ControlRecords(string dataDirectory)
    {
        var files = new List<(uint Epoch, List<ControlRecord> Records)>();
        foreach (string file in DataLayout.ControlLogFiles)
        {
            var records = new List<ControlRecord>();
            Assert.True(ControlLogFormat.TryReadFile(File.ReadAllBytes(Path.Combine(dataDirectory, file)), out uint epoch, out _, records));
            files.Add((epoch, records));
        }

        return [.. files.OrderBy(f => f.Epoch).SelectMany(f => f.Records)];
    }

    private static IEnumerable<int> RecordEnds(byte[] bytes, uint epoch)
    {
        int position = ControlLogFormat.HeaderLength;
        while (ControlLogFormat.TryReadRecord(bytes.AsSpan(position), epoch, out _, out int length))
        {
            position += length;
            yield return position;
        }
    }

    private static int EndOfRecords(byte[] bytes)
    {
        Assert.True(ControlLogFormat.TryReadFile(bytes, out _, out int end, []));
        return end;
    }

    /// <summary>The file new records go to: the one with the higher epoch.</summary>
    private static (string Path, uint Epoch) ActiveControlFile(string dataDirectory) => DataLayout.ControlLogFiles
        .Select(file => Path.Combine(dataDirectory, file))
        .Select(path => (path, ControlLogFormat.TryReadHeader(File.ReadAllBytes(path), out uint epoch) ? epoch : 0))
        .MaxBy(file => file.Item2);

    internal static string[] Describe(IEnumerable<ControlRecord> records) =>
        [.. records.Select(r => $"{r.Action.ToString().ToLowerInvariant()} {System.Text.Encoding.UTF8.GetString(KeyNames.TryParse(r.Name, out byte[] key) ? key : [])}")];

    private static string FilterPath(string dataDirectory, string key) =>
        Path.Combine(FiltersOf(dataDirectory), KeyNames.DirectoryName(System.Text.Encoding.UTF8.GetBytes(key)));
}
