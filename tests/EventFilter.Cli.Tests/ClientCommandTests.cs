using System.Text.Json;

namespace EventFilter.Cli.Tests;

/// <summary>`eventfilter -s SOCKET ...` against a real eventfilterd: each command in text and in JSON.</summary>
public sealed class ClientCommandTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    private string Socket => fixture.Daemon.SocketPath;

    [Fact]
    public void Ping_answers_pong_in_text_and_json()
    {
        CliRun text = Client("ping");
        CliRun json = Client("ping", "--json");

        Assert.Equal(0, text.ExitCode);
        Assert.StartsWith($"PONG from eventfilterd at {Socket} in ", text.Stdout, StringComparison.Ordinal);
        Assert.Equal(0, json.ExitCode);
        Assert.Equal("PONG", json.Json().GetProperty("reply").GetString());
        Assert.True(json.Json().GetProperty("roundTripMilliseconds").GetDouble() >= 0);
    }

    [Fact]
    public void Create_makes_a_filter_that_info_describes()
    {
        CliRun created = Client("create", "orders", "--error-rate", "0.1%", "--capacity", "1M", "--expansion", "4", "--json");
        CliRun info = Client("info", "orders", "--json");
        CliRun text = Client("info", "orders");

        Assert.Equal(0, created.ExitCode);
        Assert.Equal(0.001, created.Json().GetProperty("errorRate").GetDouble());
        Assert.Equal(1_000_000, created.Json().GetProperty("capacity").GetInt64());
        Assert.Equal(4, created.Json().GetProperty("expansion").GetInt32());
        Assert.Equal(0, info.ExitCode);
        JsonElement fields = info.Json();
        Assert.Equal("orders", fields.GetProperty("name").GetString());
        Assert.Equal(1_000_000, fields.GetProperty("capacity").GetInt64());
        Assert.Equal(1, fields.GetProperty("layers").GetInt64());
        Assert.Equal(0, fields.GetProperty("items").GetInt64());
        Assert.Equal(4, fields.GetProperty("expansion").GetInt64());
        Assert.True(fields.GetProperty("sizeBytes").GetInt64() > 1_000_000);
        Assert.Contains("items       0 of capacity 1,000,000", text.Stdout, StringComparison.Ordinal);
        Assert.Contains("expansion   4x per new layer", text.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void Add_answers_added_then_maybe_existed_and_check_finds_it()
    {
        Assert.Contains("created filter 'people'", Client("create", "people").Stdout, StringComparison.Ordinal);

        Assert.Equal("added           alice", Client("add", "people", "alice").Stdout.TrimEnd());
        JsonElement again = Client("add", "people", "alice", "--json").Json().GetProperty("results")[0];
        Assert.False(again.GetProperty("added").GetBoolean());
        Assert.Equal("maybe-existed", again.GetProperty("answer").GetString());
        Assert.Equal("maybe           alice", Client("check", "people", "alice").Stdout.TrimEnd());
        Assert.Equal("definitely not  bob", Client("check", "people", "bob").Stdout.TrimEnd());
    }

    [Fact]
    public void Madd_and_mcheck_answer_per_item_in_order()
    {
        CliRun added = Client("madd", "batch", "a", "b", "a", "--json");
        CliRun checkedItems = Client("mcheck", "batch", "a", "zzz", "b", "--json");

        Assert.Equal(0, added.ExitCode);
        Assert.Equal([true, true, false], [.. added.Json().GetProperty("results").EnumerateArray().Select(r => r.GetProperty("added").GetBoolean())]);
        Assert.Equal(JsonValueKind.Null, added.Json().GetProperty("error").ValueKind);
        Assert.Equal(["maybe", "definitely-not", "maybe"], [.. checkedItems.Json().GetProperty("results").EnumerateArray().Select(r => r.GetProperty("answer").GetString()!)]);
        Assert.Equal(["a", "zzz", "b"], [.. checkedItems.Json().GetProperty("results").EnumerateArray().Select(r => r.GetProperty("item").GetString()!)]);
    }

    [Fact]
    public void Madd_into_a_full_nonscaling_filter_reports_what_was_added_and_exits_4()
    {
        Assert.Equal(0, Client("create", "tiny", "--capacity", "2", "--nonscaling").ExitCode);

        CliRun run = Client("madd", "tiny", "x1", "x2", "x3", "x4", "--json");

        Assert.Equal(4, run.ExitCode);
        JsonElement json = run.Json();
        Assert.Equal(2, json.GetProperty("results").GetArrayLength());
        Assert.Contains("ERR non scaling filter is full", json.GetProperty("error").GetString(), StringComparison.Ordinal);
        Assert.Contains("ERR non scaling filter is full", Assert.Single(run.ErrorLines), StringComparison.Ordinal);
    }

    [Fact]
    public void List_returns_the_matching_names_sorted()
    {
        foreach (string name in new[] { "listed:b", "listed:a", "listed:c", "other" })
        {
            Assert.Equal(0, Client("add", name, "x").ExitCode);
        }

        CliRun text = Client("list", "listed:*");
        CliRun json = Client("list", "listed:[ab]", "--json");

        Assert.Equal("listed:a\nlisted:b\nlisted:c\n", text.Stdout.ReplaceLineEndings("\n"));
        Assert.Equal(2, json.Json().GetProperty("count").GetInt32());
        Assert.Equal("6c69737465643a61", json.Json().GetProperty("filters")[0].GetProperty("hex").GetString());
        Assert.Contains("other", Client("list").Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void Stats_shows_the_daemons_info_by_section()
    {
        CliRun text = Client("stats");
        JsonElement json = Client("stats", "--json").Json().GetProperty("sections");

        Assert.Equal(0, text.ExitCode);
        Assert.Contains("# Server", text.Stdout, StringComparison.Ordinal);
        Assert.Equal("always", json.GetProperty("Server").GetProperty("log_sync").GetString());
        Assert.Equal(fixture.Daemon.Id.ToString(System.Globalization.CultureInfo.InvariantCulture), json.GetProperty("Server").GetProperty("process_id").GetString());
        Assert.True(int.Parse(json.GetProperty("Eventfilterd").GetProperty("filters").GetString()!, System.Globalization.CultureInfo.InvariantCulture) >= 0);
    }

    [Fact]
    public void Drop_deletes_the_filter_and_a_second_drop_exits_4()
    {
        Assert.Equal(0, Client("add", "doomed", "x").ExitCode);

        CliRun dropped = Client("drop", "doomed", "--json");
        CliRun again = Client("drop", "doomed");

        Assert.Equal(0, dropped.ExitCode);
        Assert.True(dropped.Json().GetProperty("dropped").GetBoolean());
        again.AssertOneLineFailure("no filter named 'doomed'", exitCode: 4);
        Client("info", "doomed").AssertOneLineFailure("ERR not found", exitCode: 4);
    }

    [Fact]
    public void The_socket_option_may_follow_the_command()
    {
        CliRun run = CliRun.Of("ping", "--socket", Socket);

        Assert.Equal(0, run.ExitCode);
        Assert.StartsWith("PONG", run.Stdout, StringComparison.Ordinal);
    }

    private CliRun Client(params string[] args) => CliRun.Of(["-s", Socket, .. args]);
}
