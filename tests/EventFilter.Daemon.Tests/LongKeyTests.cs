using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;
using Microsoft.Extensions.Logging.Abstractions;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Any key Redis takes, up to 64 KB and binary, names a filter (docs/daemon.md, "Files"): a long key's directory is
/// named by a readable prefix and a hash, with the exact key in its key file, so listing returns the key, a restart
/// finds it, a name taken by another key is not reused, and data directories of earlier releases still open.
/// </summary>
public sealed class LongKeyTests : IDisposable
{
    private static readonly FilterParameters Small = new(100, 0.01, 2, NonScaling: false);
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private string Filters => Path.Combine(_directory.Path, DataLayout.FiltersDirectory);

    [Fact]
    public void A_64_KB_binary_key_is_a_filter_with_its_exact_bytes_over_the_socket()
    {
        using var fixture = new DaemonFixture();
        using RespClient client = fixture.Connect();
        byte[] key = Key(65_536, seed: 1);
        byte[] twin = [.. key];
        twin[^1] ^= 1; // the same prefix: a name of its own all the same

        Assert.Equal(1L, client.Call("BF.ADD", key, "item"));
        Assert.Equal(1L, client.Call("BF.EXISTS", key, "item"));
        Assert.Equal(0L, client.Call("BF.EXISTS", twin, "item"));
        Assert.Equal("OK", client.Call("BF.RESERVE", twin, "0.01", "100"));
        Assert.Equal(2L, client.Call("EXISTS", key, twin));
        object?[] keys = Assert.IsType<object?[]>(client.Call("KEYS", "*"));
        Assert.Contains(keys, k => ((byte[])k!).AsSpan().SequenceEqual(key));
        Assert.Contains(keys, k => ((byte[])k!).AsSpan().SequenceEqual(twin));
        Assert.Equal(2L, client.Call("DEL", key, twin));
        Assert.Equal(0L, client.Call("DBSIZE"));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_long_keys_filter_is_found_by_its_key_after_a_restart_and_after_a_crash(bool always)
    {
        LogSync mode = always ? LogSync.Always : LogSync.Periodic;
        byte[] key = Key(5_000, seed: 2);
        using var crashed = new TempDirectory();
        using (FilterStore store = Open(mode))
        {
            Add(store.FindOrCreate(key, Small), 42);
            CrashCopy.Make(_directory.Path, crashed.Path);
        }

        foreach (string dataDirectory in new[] { _directory.Path, crashed.Path })
        {
            using FilterStore reopened = Open(mode, dataDirectory);
            NamedFilter filter = Assert.IsType<NamedFilter>(reopened.Find(key));
            Assert.Equal(1, filter.Count);
            Assert.Equal(key, Assert.Single(reopened.Keys()));
            Assert.StartsWith("h", filter.Name, StringComparison.Ordinal);
            Assert.True(filter.Name.Length < 100);
        }
    }

    [Fact]
    public void A_hashed_name_taken_by_a_directory_is_not_reused_and_the_key_file_says_whose_filter_it_is()
    {
        byte[] key = Key(300, seed: 3);
        string taken = Path.Combine(Filters, KeyNames.DirectoryName(key));
        Directory.CreateDirectory(taken); // as a colliding key's directory would be
        using (FilterStore store = Open(LogSync.Always))
        {
            // The start removed the empty directory as an unwritten create; take the name again before the create.
            Directory.CreateDirectory(taken);
            NamedFilter filter = store.Create(key, Small)!;
            Assert.Equal(KeyNames.DirectoryName(key, collision: 1), filter.Name);
        }

        Directory.Delete(taken);
        using (FilterStore reopened = Open(LogSync.Always))
        {
            Assert.Equal(KeyNames.DirectoryName(key, collision: 1), reopened.Find(key)!.Name);
        }

        // A key file holding another key than its directory's name says is damage, never another filter's key.
        string moved = Path.Combine(Filters, KeyNames.DirectoryName(Key(300, seed: 4)));
        Directory.Move(Path.Combine(Filters, KeyNames.DirectoryName(key, collision: 1)), moved);
        var refused = Assert.Throws<InvalidDataException>(() => Open(LogSync.Always).Dispose());
        Assert.Contains("key file", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_data_directory_of_an_earlier_release_with_120_byte_hex_names_still_opens()
    {
        byte[] key = Key(120, seed: 5);
        using (FilterStore store = Open(LogSync.Always))
        {
            Add(store.FindOrCreate(key, Small), 7);
        }

        // An earlier release named this key by its hex, with no key file.
        string hashed = Path.Combine(Filters, KeyNames.DirectoryName(key));
        File.Delete(Path.Combine(hashed, DataLayout.KeyFile));
        Directory.Move(hashed, Path.Combine(Filters, "k" + Convert.ToHexStringLower(key)));

        using FilterStore reopened = Open(LogSync.Always);
        Assert.Equal(1, reopened.Find(key)!.Count);
        Assert.Equal(key, Assert.Single(reopened.Keys()));
    }

    [Fact]
    public void A_dump_restores_into_a_long_key()
    {
        string from = new('f', 500), to = new('t', 500);
        using var commands = new InProcessCommands(_directory.Path, LogSync.Periodic);
        Assert.Equal(1L, commands.Call("BF.ADD", from, "item"));
        DumpLoop.Load(commands.Call, to, DumpLoop.Dump(commands.Call, from));
        Assert.Equal(1L, commands.Call("BF.EXISTS", to, "item"));
        Assert.Equal(2L, commands.Call("DBSIZE"));
        Assert.Contains(Assert.IsType<object?[]>(commands.Call("KEYS", "t*")), k => System.Text.Encoding.ASCII.GetString((byte[])k!) == to);
    }

    private FilterStore Open(LogSync mode, string? dataDirectory = null)
    {
        var store = new FilterStore(dataDirectory ?? _directory.Path, mode, new FilterObserver(), NullLogger.Instance, TimeProvider.System);
        try
        {
            store.Open();
            return store;
        }
        catch
        {
            store.Dispose();
            throw;
        }
    }

    private static byte[] Key(int length, int seed)
    {
        byte[] key = new byte[length];
        new Random(seed).NextBytes(key);
        key[0] = (byte)'/'; // no key reaches outside filters/, whatever its bytes
        key[1] = 0;
        return key;
    }

    private static void Add(NamedFilter filter, ulong digest)
    {
        Span<bool> added = stackalloc bool[1];
        Assert.Equal(AddOutcome.Done, filter.Add([digest], added, out _));
        filter.WriteLog();
    }
}
