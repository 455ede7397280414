using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The contract each --log-sync mode's durability keeps for creates and drops (docs/daemon-design.md, "Durability"), run
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
        NamedFilter created = durability.Create("ab"u8, Small)!;
        Assert.Same(created, _map.Find("ab"u8));
        Assert.Null(durability.Create("ab"u8, Small));
        Assert.Same(created, durability.FindOrCreate("ab"u8, Small));

        Assert.True(durability.Drop("ab"u8));
        Assert.False(durability.Drop("ab"u8));
        Assert.Null(_map.Find("ab"u8));
        Assert.NotSame(created, durability.FindOrCreate("ab"u8, Small));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_dropped_filters_directory_is_hidden_at_once_and_its_files_go_at_the_next_tick(bool always)
    {
        using FilterDurability durability = Start(always ? LogSync.Always : LogSync.Periodic);
        Assert.False(durability.Drop("cd"u8));
        durability.Create("cd"u8, Small)!.Materialize();
        durability.Tick();

        Assert.True(durability.Drop("cd"u8));
        Assert.False(Directory.Exists(Path.Combine(Root, KeyNames.DirectoryName("cd"u8))));
        Assert.Single(Directory.GetDirectories(Root), d => d.EndsWith(DataLayout.DeletingSuffix, StringComparison.Ordinal));

        durability.Tick();
        Assert.Empty(Directory.GetDirectories(Root));
    }

    [Fact]
    public void Always_makes_the_filters_directory_and_log_before_the_create_returns()
    {
        using FilterDurability durability = Start(LogSync.Always);
        durability.Create("ef"u8, Small);
        Assert.True(File.Exists(NamedFilter.LogPath(Path.Combine(Root, KeyNames.DirectoryName("ef"u8)))));
    }

    [Fact]
    public void Periodic_records_the_create_and_makes_no_file_until_the_first_add()
    {
        using (FilterDurability durability = Start(LogSync.Periodic))
        {
            durability.Create("ef"u8, Small);
            Assert.Empty(Directory.GetDirectories(Root));
        }

        // Not ticked: the record alone brings the filter back, pending.
        _map.Remove(_map.Find("ef"u8)!);
        using FilterDurability reopened = Start(LogSync.Periodic);
        NamedFilter pending = Assert.IsType<NamedFilter>(_map.Find("ef"u8));
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
