using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;
using EventFilter.Durability;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The contract each --log-sync mode's durability keeps for creates and drops (docs/daemon.md, "Durability"), run
/// against both: a name has one filter, a drop hides the directory and the next tick removes its files, and what the
/// mode promises is on disk before the call returns.
/// </summary>
public sealed class FilterDurabilityTests : IDisposable
{
    private static readonly FilterParameters Small = new(100, 0.01, 2, NonScaling: false);
    private readonly TempDirectory _directory = new();
    private readonly FilterMap _map = new();

    public void Dispose() => _directory.Dispose();

    private string Root => Path.Combine(_directory.Path, DataLayout.FiltersDirectory);

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_name_has_one_filter_until_it_is_dropped(bool always)
    {
        using FilterDurability durability = Start(always ? LogSync.Always : LogSync.Periodic);
        NamedFilter created = durability.Create("kab", Small)!;
        Assert.Same(created, _map.Find("kab"));
        Assert.Null(durability.Create("kab", Small));
        Assert.Same(created, durability.FindOrCreate("kab", Small));

        Assert.True(durability.Drop("kab"));
        Assert.False(durability.Drop("kab"));
        Assert.Null(_map.Find("kab"));
        Assert.NotSame(created, durability.FindOrCreate("kab", Small));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_dropped_filters_directory_is_hidden_at_once_and_its_files_go_at_the_next_tick(bool always)
    {
        using FilterDurability durability = Start(always ? LogSync.Always : LogSync.Periodic);
        Assert.False(durability.Drop("kcd"));
        durability.Create("kcd", Small)!.Materialize();
        durability.Tick();

        Assert.True(durability.Drop("kcd"));
        Assert.False(Directory.Exists(Path.Combine(Root, "kcd")));
        Assert.Single(Directory.GetDirectories(Root), d => d.EndsWith(DataLayout.DeletingSuffix, StringComparison.Ordinal));

        durability.Tick();
        Assert.Empty(Directory.GetDirectories(Root));
    }

    [Fact]
    public void Always_makes_the_filters_directory_and_log_before_the_create_returns()
    {
        using FilterDurability durability = Start(LogSync.Always);
        durability.Create("kef", Small);
        Assert.True(File.Exists(NamedFilter.LogPath(Path.Combine(Root, "kef"))));
    }

    [Fact]
    public void Periodic_records_the_create_and_makes_no_file_until_the_first_add()
    {
        using (FilterDurability durability = Start(LogSync.Periodic))
        {
            durability.Create("kef", Small);
            Assert.Empty(Directory.GetDirectories(Root));
        }

        // Not ticked: the record alone brings the filter back, pending.
        _map.Remove("kef");
        using FilterDurability reopened = Start(LogSync.Periodic);
        NamedFilter pending = Assert.IsType<NamedFilter>(_map.Find("kef"));
        Assert.False(pending.IsMaterialized);
    }

    private FilterDurability Start(LogSync mode)
    {
        Directory.CreateDirectory(Root);
        var control = ControlLog.Open(_directory.Path, out List<ControlRecord> records);
        FilterDurability durability = mode == LogSync.Always
            ? new ImmediateDurability(_map, Root, new FilterObserver(), control)
            : new ControlLogDurability(_map, Root, new FilterObserver(), control);
        durability.Start(records, rootChanged: false);
        return durability;
    }
}
