using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>SCAN's stateless cursor over the filter names: every name once, in batches, with MATCH and COUNT.</summary>
public sealed class ScanTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    [Fact]
    public void Scan_returns_every_name_exactly_once_in_batches_of_count()
    {
        using RespClient client = fixture.Connect();
        string[] names = [.. Enumerable.Range(0, 57).Select(i => $"batch:{i}")];
        foreach (string name in names)
        {
            client.Call("BF.ADD", name, "x");
        }

        List<string> seen = Scan(client, "batch:*", count: 5, out int calls);

        Assert.Equal(names.Order(StringComparer.Ordinal), seen.Order(StringComparer.Ordinal));
        Assert.True(calls >= 57 / 5, $"COUNT 5 bounds each batch: {calls} calls");
    }

    [Fact]
    public void Scan_keeps_its_place_while_other_names_come_and_go()
    {
        using RespClient client = fixture.Connect();
        string[] stay = [.. Enumerable.Range(0, 30).Select(i => $"stay:{i}")];
        foreach (string name in stay)
        {
            client.Call("BF.ADD", name, "x");
        }

        // Churn between calls: names made and deleted must not make the scan skip or repeat one that stayed.
        int round = 0;
        List<string> seen = Scan(client, "stay:*", count: 4, out _, betweenCalls: () =>
        {
            client.Call("BF.ADD", $"stay:churn-{round}", "x");
            client.Call("DEL", $"stay:churn-{round - 1}");
            round++;
        });

        List<string> stayed = [.. seen.Where(name => !name.StartsWith("stay:churn-", StringComparison.Ordinal))];
        Assert.Equal(stay.Order(StringComparer.Ordinal), stayed.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Scan_of_nothing_ends_at_once()
    {
        using RespClient client = fixture.Connect();

        var reply = (object?[])client.Call("SCAN", "0", "MATCH", "no-such-name-*", "COUNT", "100000")!;

        Assert.Equal("0"u8.ToArray(), reply[0]);
        Assert.Equal(Array.Empty<object?>(), reply[1]);
    }

    [Theory]
    [InlineData("ERR invalid cursor", new[] { "SCAN", "x" })]
    [InlineData("ERR syntax error", new[] { "SCAN", "0", "COUNT", "0" })]
    [InlineData("ERR value is not an integer or out of range", new[] { "SCAN", "0", "COUNT", "many" })]
    [InlineData("ERR syntax error", new[] { "SCAN", "0", "MATCH" })]
    [InlineData("ERR syntax error", new[] { "SCAN", "0", "TYPE", "string" })]
    [InlineData("ERR wrong number of arguments for 'scan' command", new[] { "SCAN" })]
    public void Bad_scan_arguments_are_redis_errors(string expected, string[] command)
    {
        using RespClient client = fixture.Connect();

        var error = Assert.IsType<RespError>(client.Call(command));

        Assert.Equal(expected, error.Message);
    }

    private static List<string> Scan(RespClient client, string pattern, int count, out int calls, Action? betweenCalls = null)
    {
        var seen = new List<string>();
        string cursor = "0";
        calls = 0;
        do
        {
            var reply = (object?[])client.Call("SCAN", cursor, "MATCH", pattern, "COUNT", count)!;
            cursor = Encoding.ASCII.GetString((byte[])reply[0]!);
            var batch = (object?[])reply[1]!;
            Assert.True(batch.Length <= count, $"a batch of {batch.Length} with COUNT {count}");
            seen.AddRange(batch.Select(k => Encoding.UTF8.GetString((byte[])k!)));
            calls++;
            betweenCalls?.Invoke();
        }
        while (cursor != "0");

        return seen;
    }
}
