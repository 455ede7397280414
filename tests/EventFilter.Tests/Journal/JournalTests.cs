using EventFilter.Journal;
using EventFilter.Tests.Durability;

namespace EventFilter.Tests.Journal;

/// <summary>The changed-line journal: what a flush writes, what a replay accepts, and what a fold leaves behind.</summary>
public sealed class JournalTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    private StreamExistenceFilterOptions Options(long? foldBytes = long.MaxValue) =>
        new() { DataDirectory = _dir.Path, SizeBytes = 1 << 20, CatchUpCheckpointRecords = 1_000_000, JournalFoldBytes = foldBytes };

    [Fact]
    public async Task A_corrupted_journal_record_is_never_applied_and_catch_up_starts_at_the_last_commit_before_it()
    {
        var options = Options();
        var log = new InMemoryStreamLog();
        long firstCheckpoint;
        using (StreamExistenceFilter filter = await FilterHarness.OpenReadyAsync(options, log))
        {
            FilterHarness.Append(log, filter, 0, 1_000);
            filter.Checkpoint(firstCheckpoint = log.EndPosition);
            FilterHarness.Append(log, filter, 1_000, 1_000);
            filter.Checkpoint(log.EndPosition);
        }

        // Turn a record of the second flush into "all ones" without resealing it: applied, it would show as a full line.
        string journal = JournalFiles.List(options.FilterPath)[^1].Path;
        byte[] bytes = File.ReadAllBytes(journal);
        int record = (int)((bytes.Length - JournalHeader.Length) / JournalRecord.Length) - 10;
        bytes.AsSpan(JournalHeader.Length + (record * JournalRecord.Length) + 8, 60).Fill(0xFF);
        File.WriteAllBytes(journal, bytes);

        using (FilterFile readOnly = FilterFile.OpenExisting(options.FilterPath))
        {
            Assert.Contains("fails its checksum", readOnly.PendingJournal.Damage, StringComparison.Ordinal);
            Assert.Equal(firstCheckpoint, readOnly.PendingJournal.Position);
            Assert.Equal(0, readOnly.ComputeStatistics().AllOnesLines);
        }

        var observer = new RecordingObserver();
        var reader = new InMemoryStreamLog();
        for (int i = 0; i < 2_000; i++)
        {
            reader.Append(Names.Added(i));
        }

        using var reopened = new StreamExistenceFilter(options, reader, observer);
        reopened.Open();
        Assert.Equal(firstCheckpoint, reopened.CheckpointPosition);
        Assert.NotNull(observer.JournalDamage);
        await reopened.CatchUpAsync(CancellationToken.None);
        Assert.Equal(1_000, reader.RecordsRead);
        Assert.Equal(0, FilterHarness.FalseNegatives(reopened, 2_000));
    }

    [Fact]
    public void A_record_cut_short_at_the_end_is_a_crash_mid_append_not_damage()
    {
        string path = _dir.File("f");
        using (FilterFile filter = FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 20 }))
        {
            filter.Add("a");
            filter.Flush(position: 1);
        }

        using (var stream = new FileStream(JournalFiles.PathFor(path, 1), FileMode.Append))
        {
            stream.Write(new byte[30]);
        }

        using FilterFile reopened = FilterFile.OpenExisting(path);
        Assert.Null(reopened.PendingJournal.Damage);
        Assert.Equal(1, reopened.PendingJournal.Position);
        Assert.True(reopened.MightExist("a"));
    }

    [Fact]
    public void Sparse_changes_are_journaled_and_dense_ones_written_in_place()
    {
        string path = _dir.File("f");
        using FilterFile filter = FilterFile.Open(path, new FilterFileOptions { SizeBytes = 64L << 20, JournalFoldBytes = long.MaxValue });
        for (int i = 0; i < 100; i++)
        {
            filter.Add(Names.Added(i));
        }

        FlushResult sparse = filter.Flush();
        Assert.InRange(sparse.BytesFlushed, 100 * JournalRecord.Length, (100 * JournalRecord.Length) + (2 * 4096));
        long journalLength = new FileInfo(JournalFiles.PathFor(path, 1)).Length;
        Assert.Equal(JournalHeader.Length + (101 * JournalRecord.Length), journalLength); // 100 lines and a commit

        using FilterFile small = FilterFile.Open(_dir.File("g"), new FilterFileOptions { SizeBytes = 256 * 1024, JournalFoldBytes = long.MaxValue });
        for (int i = 0; i < 20_000; i++)
        {
            small.Add(Names.Added(i));
        }

        FlushResult dense = small.Flush();
        Assert.Equal(256 * 1024, dense.BytesFlushed); // every block once, no journal (nothing to commit)
        Assert.Empty(JournalFiles.List(_dir.File("g")));
    }

    [Fact]
    public void A_fold_writes_the_journal_into_the_file_records_the_position_and_deletes_the_journal()
    {
        string path = _dir.File("f");
        using (FilterFile filter = FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 20, JournalFoldBytes = long.MaxValue }))
        {
            for (int i = 0; i < 500; i++)
            {
                filter.Add(Names.Added(i));
            }

            filter.Flush(position: 500);
            Assert.NotEmpty(JournalFiles.List(path));
            filter.FoldJournal();
            Assert.Empty(JournalFiles.List(path));
            Assert.Equal(500, CheckpointFile.TryRead(CheckpointFile.PathFor(path))!.Position);
        }

        using FilterFile reopened = FilterFile.OpenExisting(path);
        Assert.True(reopened.PendingJournal.IsEmpty);
        Assert.Equal(0, Enumerable.Range(0, 500).Count(i => !reopened.MightExist(Names.Added(i))));
    }

    [Fact]
    public async Task Background_folds_run_by_themselves_and_lose_nothing()
    {
        var options = Options(foldBytes: 16 * 1024);
        var log = new InMemoryStreamLog();
        var observer = new RecordingObserver();
        using (StreamExistenceFilter filter = await FilterHarness.OpenReadyAsync(options, log, observer))
        {
            for (int round = 0; round < 20; round++)
            {
                FilterHarness.Append(log, filter, round * 300, 300);
                filter.Checkpoint(log.EndPosition);
            }
        }

        // Dispose waited for the last fold; the journal holds at most what came after it.
        Assert.True(observer.Folds > 0, "no background fold ran");
        Assert.True(JournalFiles.List(options.FilterPath).Count <= 2);
        var reader = new InMemoryStreamLog();
        for (int i = 0; i < 6_000; i++)
        {
            reader.Append(Names.Added(i));
        }

        using var reopened = new StreamExistenceFilter(options, reader);
        reopened.Open();
        Assert.Equal(6_000, reopened.CheckpointPosition);
        await reopened.CatchUpAsync(CancellationToken.None);
        Assert.Equal(0, reader.RecordsRead);
        Assert.Equal(0, FilterHarness.FalseNegatives(reopened, 6_000));
    }

    [Fact]
    public void A_journal_left_by_a_replaced_file_is_skipped_and_removed()
    {
        string path = _dir.File("f");
        var options = new FilterFileOptions { SizeBytes = 1 << 20 };
        using (FilterFile old = FilterFile.Open(path, options))
        {
            old.Add("old-name");
            old.Flush(position: 7);
        }

        // A stale journal beside a new file (as a crash during a rebuild could leave): copied back in by hand.
        string stale = _dir.File("stale-journal");
        File.Copy(JournalFiles.PathFor(path, 1), stale);
        using (FilterFile.Create(path, options)) { }
        File.Copy(stale, JournalFiles.PathFor(path, 1));

        using FilterFile reopened = FilterFile.Open(path, options);
        Assert.Equal(0, reopened.PendingJournal.Files);
        Assert.Null(reopened.CommittedPosition);
        Assert.False(reopened.MightExist("old-name"));
        Assert.Empty(JournalFiles.List(path));
    }
}
