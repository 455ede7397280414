using System.Text;

namespace EventFilter.Tests;

public sealed class FilterFileTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void A_million_added_names_are_all_found_before_and_after_reopen()
    {
        const int count = 1_000_000;
        string path = _dir.File("filter.bin");
        var options = new FilterFileOptions { SizeBytes = 4_000_000 };
        using (FilterFile filter = FilterFile.Open(path, options))
        {
            Assert.True(filter.Created);
            for (int i = 0; i < count; i++)
            {
                filter.Add(Names.Added(i));
            }

            Assert.Equal(0, CountMissing(filter, count));
            filter.Flush();
        }

        using (FilterFile reopened = FilterFile.Open(path, options))
        {
            Assert.False(reopened.Created);
            Assert.True(reopened.Verification.IsClean);
            Assert.Equal(0, CountMissing(reopened, count));
        }
    }

    [Fact]
    public void Open_creates_a_missing_parent_directory_instead_of_failing_on_the_lock_file()
    {
        // The README's snippet: a relative path whose directory does not exist yet threw DirectoryNotFoundException naming the .lock file.
        string path = _dir.File(Path.Combine("data", "nested", "stream-existence.filter"));
        var options = new FilterFileOptions { SizeBytes = 1 << 20 };

        using (FilterFile filter = FilterFile.Open(path, options))
        {
            Assert.True(filter.Created);
            filter.Add("order-42");
            filter.Flush();
        }

        using FilterFile reopened = FilterFile.Open(path, options);
        Assert.True(reopened.MightExist("order-42"));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)] // the file cut in three ranges populated at once, the last page shared by none
    public void Making_every_page_private_ahead_of_a_catch_up_changes_no_bit_and_later_adds_still_persist(int threads)
    {
        // ExpectAdds populates the private copies of all pages at once (madvise); it must read the file's bits into
        // them, not zeros, and leave adds and flushes working as before.
        string path = _dir.File("filter.bin");
        var options = new FilterFileOptions { SizeBytes = 1 << 20 };
        using (FilterFile filter = FilterFile.Open(path, options))
        {
            for (int i = 0; i < 10_000; i++)
            {
                filter.Add(Names.Added(i));
            }

            filter.Flush();
        }

        using (FilterFile filter = FilterFile.Open(path, options))
        {
            long bitsBefore = filter.ComputeStatistics().BitsSet;
            filter.ExpectAdds(long.MaxValue, threads);
            Assert.Equal(bitsBefore, filter.ComputeStatistics().BitsSet);
            Assert.Equal(0, CountMissing(filter, 10_000));
            for (int i = 10_000; i < 20_000; i++)
            {
                filter.Add(Names.Added(i));
            }

            filter.Flush();
        }

        using FilterFile reopened = FilterFile.Open(path, options);
        Assert.True(reopened.Verification.IsClean);
        Assert.Equal(0, CountMissing(reopened, 20_000));
    }

    [Fact]
    public void Adds_reach_the_file_only_through_a_flush_because_the_mapping_is_private()
    {
        // Regression: with a shared mapping the kernel wrote adds back on its own and msync write-protected pages,
        // stalling adds behind checkpoints. Now unflushed adds are only in memory, and a flush is what persists them.
        string path = _dir.File("filter.bin");
        var options = new FilterFileOptions { SizeBytes = 1 << 20, JournalFoldBytes = long.MaxValue }; // a fold may carry newer bits
        using (FilterFile filter = FilterFile.Open(path, options))
        {
            for (int i = 0; i < 10_000; i++)
            {
                filter.Add(Names.Added(i));
            }

            filter.Flush();
            for (int i = 10_000; i < 20_000; i++)
            {
                filter.Add(Names.Added(i));
            }
        }

        using FilterFile reopened = FilterFile.Open(path, options);
        Assert.True(reopened.Verification.IsClean);
        Assert.Equal(0, CountMissing(reopened, 10_000));
        Assert.True(Enumerable.Range(10_000, 10_000).Count(i => !reopened.MightExist(Names.Added(i))) > 5_000, "unflushed adds reached the file");
    }

    [Fact]
    public void A_new_filter_answers_definitely_not()
    {
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = 1 << 20 });
        for (int i = 0; i < 1000; i++)
        {
            Assert.False(filter.MightExist(Names.Absent(i)));
        }
    }

    [Theory]
    [InlineData("simple-stream")]
    [InlineData("$all")]
    [InlineData("заказ-42")]
    [InlineData("注文-🚀-stream")]
    [InlineData("")]
    public void String_and_utf8_forms_agree(string name)
    {
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = 1 << 20 });
        byte[] utf8 = Encoding.UTF8.GetBytes(name);
        Assert.Equal(filter.Hash(name), filter.Hash(utf8));
        Assert.False(filter.MightExist(utf8));
        filter.Add(name);
        Assert.True(filter.MightExist(utf8));
        Assert.True(filter.MightExist(name));
    }

    [Fact]
    public void A_name_longer_than_the_stack_buffer_hashes_like_its_utf8()
    {
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = 1 << 20 });
        string name = string.Concat(Enumerable.Repeat("ü-long-stream-name-", 100));
        Assert.Equal(filter.Hash(name), filter.Hash(Encoding.UTF8.GetBytes(name)));
    }

    [Fact]
    public void Batch_forms_agree_with_single_calls()
    {
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = 1 << 16 });
        string[] added = Enumerable.Range(0, 300).Select(Names.Added).ToArray();
        filter.AddBatch(added.AsSpan(0, 150));
        byte[] packed = Encoding.UTF8.GetBytes(string.Concat(added.Skip(150)));
        int[] lengths = added.Skip(150).Select(n => Encoding.UTF8.GetByteCount(n)).ToArray();
        filter.AddBatch(packed, lengths);

        string[] queried = added.Concat(Enumerable.Range(0, 300).Select(Names.Absent)).ToArray();
        var batch = new bool[queried.Length];
        filter.MightExistBatch(queried, batch);
        byte[] queriedPacked = Encoding.UTF8.GetBytes(string.Concat(queried));
        var packedAnswers = new bool[queried.Length];
        filter.MightExistBatch(queriedPacked, queried.Select(n => Encoding.UTF8.GetByteCount(n)).ToArray(), packedAnswers);
        for (int i = 0; i < queried.Length; i++)
        {
            Assert.Equal(filter.MightExist(queried[i]), batch[i]);
            Assert.Equal(batch[i], packedAnswers[i]);
        }

        Assert.All(batch.Take(300), Assert.True);
    }

    [Fact]
    public void A_packed_batch_with_bad_lengths_is_rejected_and_adds_nothing()
    {
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = 1 << 16 });
        byte[] packed = Encoding.UTF8.GetBytes("stream-astream-b");
        Assert.Throws<ArgumentException>(() => filter.AddBatch(packed, [8, 8, 1]));
        Assert.False(filter.MightExist("stream-a"));
        Assert.Equal(0, filter.ComputeStatistics().BitsSet);
    }

    [Fact]
    public void Every_add_keeps_its_line_checksum_valid()
    {
        string path = _dir.File("filter.bin");
        using FilterFile filter = FilterFile.Open(path, new FilterFileOptions { SizeBytes = 64 * 100 });
        for (int i = 0; i < 5_000; i++)
        {
            filter.Add(Names.Added(i));
        }

        var result = filter.Verify(repair: false);
        Assert.Equal(0, result.MismatchedLines);
        Assert.Equal(99, result.LinesChecked);
    }

    [Fact]
    public void Flush_reports_the_device_blocks_its_journal_append_touched()
    {
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = 64L << 20 });
        Assert.Equal(0, filter.Flush().BytesFlushed);
        filter.Add("one-stream");
        Assert.Equal(4096, filter.Flush().BytesFlushed); // a new journal: its header and one record share one block
        filter.Add("one-stream");
        Assert.Equal(0, filter.Flush().BytesFlushed);
    }

    [Fact]
    public void A_second_writer_is_refused_while_readers_are_not()
    {
        string path = _dir.File("filter.bin");
        var options = new FilterFileOptions { SizeBytes = 1 << 16 };
        using FilterFile writer = FilterFile.Open(path, options);
        var error = Assert.Throws<FilterFileInUseException>(() => FilterFile.Open(path, options));
        Assert.Contains(path, error.Message, StringComparison.Ordinal);
        Assert.Throws<FilterFileInUseException>(() => FilterFile.Create(path, options));
        writer.Add("x");
        writer.Flush();
        using FilterFile reader = FilterFile.OpenExisting(path); // sees what was flushed, journal included
        Assert.True(reader.MightExist("x"));
        writer.Dispose();
        FilterFile.Open(path, options).Dispose(); // released on dispose
    }

    [Fact]
    public void OpenForRepair_never_creates_a_file_and_repairs_whatever_size_it_finds()
    {
        string path = _dir.File("filter.bin");
        Assert.Throws<FileNotFoundException>(() => FilterFile.OpenExisting(path, writable: true));
        Assert.False(File.Exists(path));

        FilterFile.Open(path, new FilterFileOptions { SizeBytes = 64 * 50 }).Dispose();
        long[] bad = Integrity.CorruptionTests.CorruptRandomLines(path, 0.5, seed: 4);
        using FilterFile filter = FilterFile.OpenExisting(path, writable: true);
        Assert.Equal(bad.Length, filter.Verify(repair: true).RepairedLines);
        Assert.Equal(0, filter.Verify(repair: false).MismatchedLines);
    }

    [Fact]
    public void Read_only_open_refuses_adds()
    {
        string path = _dir.File("filter.bin");
        FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 16 }).Dispose();
        using FilterFile filter = FilterFile.OpenExisting(path);
        Assert.True(filter.IsReadOnly);
        Assert.Throws<InvalidOperationException>(() => filter.Add("x"));
    }

    internal static int CountMissing(FilterFile filter, int count)
    {
        int missing = 0;
        for (int i = 0; i < count; i++)
        {
            if (!filter.MightExist(Names.Added(i)))
            {
                missing++;
            }
        }

        return missing;
    }
}
