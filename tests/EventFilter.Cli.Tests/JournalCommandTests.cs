using System.Text.Json;

namespace EventFilter.Cli.Tests;

/// <summary>The journal in the operator's tool: inspect shows it, verify checks it, repair folds it.</summary>
public sealed class JournalCommandTests(SampleFilters files) : IClassFixture<SampleFilters>
{
    [Fact]
    public void Inspect_shows_the_pending_journal_and_counts_its_names()
    {
        string path = FilterFiles.Healthy(files.Scratch("inspect-journal.filter"), names: 1_000, sizeBytes: 1 << 20);
        FilterFiles.WithPendingJournal(path, from: 1_000, names: 200);

        CliRun inspect = CliRun.Of("inspect", path, "--json");
        CliRun text = CliRun.Of("inspect", path);

        Assert.Equal(0, inspect.ExitCode);
        JsonElement journal = inspect.Json().GetProperty("journal");
        Assert.Equal("pending", journal.GetProperty("status").GetString());
        Assert.Equal(1, journal.GetProperty("files").GetInt32());
        Assert.InRange(journal.GetProperty("lineRecords").GetInt64(), 190, 200); // two names may share a line
        Assert.InRange(inspect.Json().GetProperty("estimatedStreams").GetInt64(), 1_100, 1_300);
        Assert.Contains("journal          1 file(s)", text.Stdout, StringComparison.Ordinal);
    }

    [Fact]
    public void Verify_finds_a_damaged_journal_record_and_exits_1_without_changing_anything()
    {
        string path = FilterFiles.Healthy(files.Scratch("verify-journal.filter"), names: 1_000, sizeBytes: 1 << 20);
        string journal = FilterFiles.WithPendingJournal(path, from: 1_000, names: 200);
        byte[] bytes = File.ReadAllBytes(journal);
        bytes[64 + (68 * 50) + 20] ^= 0x10; // one bit of the 51st record
        File.WriteAllBytes(journal, bytes);
        string before = FilterFiles.Fingerprint(path) + Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(bytes));

        CliRun verify = CliRun.Of("verify", path, "--json");

        Assert.Equal(1, verify.ExitCode);
        JsonElement report = verify.Json().GetProperty("journal");
        Assert.Equal("damaged", report.GetProperty("status").GetString());
        Assert.Equal(50, report.GetProperty("lineRecords").GetInt64());
        Assert.Contains("fails its checksum", report.GetProperty("damage").GetString(), StringComparison.Ordinal);
        Assert.Contains("fails its checksum", verify.Stderr, StringComparison.Ordinal);
        Assert.Equal(before, FilterFiles.Fingerprint(path) + Convert.ToHexString(System.Security.Cryptography.SHA256.HashData(File.ReadAllBytes(journal))));
    }

    [Fact]
    public void Repair_folds_the_journal_into_the_file_and_removes_it_keeping_every_name()
    {
        string path = FilterFiles.Healthy(files.Scratch("repair-journal.filter"), names: 1_000, sizeBytes: 1 << 20);
        string journal = FilterFiles.WithPendingJournal(path, from: 1_000, names: 200);

        CliRun repair = CliRun.Of("repair", path, "--json");

        Assert.Equal(0, repair.ExitCode);
        Assert.Equal("pending", repair.Json().GetProperty("journal").GetProperty("status").GetString());
        Assert.False(File.Exists(journal));
        using FilterFile filter = FilterFile.OpenExisting(path);
        Assert.True(filter.PendingJournal.IsEmpty);
        Assert.Equal(0, Enumerable.Range(0, 1_200).Count(i => !filter.MightExist(FilterFiles.Added(i))));
        Assert.Equal(0, CliRun.Of("verify", path).ExitCode);
    }

    [Fact]
    public void Repair_text_says_the_journal_was_folded_now_not_on_the_next_open()
    {
        // The line once said "folded into the file and removed" and "(pending: folded on the next open)" at once.
        (string line, string journal) = RepairWithPendingJournal("repair-journal-text.filter", damage: null);

        Assert.StartsWith("journal          folded into the file and removed: 1 file(s), ", line, StringComparison.Ordinal);
        Assert.DoesNotContain("pending", line, StringComparison.Ordinal);
        Assert.DoesNotContain("next open", line, StringComparison.Ordinal);
        Assert.False(File.Exists(journal));
    }

    [Fact]
    public void Repair_text_says_a_damaged_journal_was_folded_up_to_its_damage()
    {
        (string line, string journal) = RepairWithPendingJournal("repair-damaged-journal-text.filter", damage: bytes => bytes[64 + (68 * 50) + 20] ^= 0x10); // one bit of the 51st record

        Assert.StartsWith("journal          folded into the file up to its damage and removed: 1 file(s), 50 line records ", line, StringComparison.Ordinal);
        Assert.Contains("fails its checksum", line, StringComparison.Ordinal);
        Assert.DoesNotContain("next open", line, StringComparison.Ordinal);
        Assert.False(File.Exists(journal));
    }

    [Fact]
    public void Repair_text_of_a_file_without_a_journal_says_there_was_none_to_fold()
    {
        string path = FilterFiles.CopyTo(files.Light, files.Scratch("repair-no-journal-text.filter"));

        Assert.Equal(["journal          none to fold"], JournalLines(CliRun.Of("repair", path)));
    }

    // A healthy file with 200 names in a pending journal (damaged as asked), repaired: the repair's journal line.
    private (string Line, string Journal) RepairWithPendingJournal(string name, Action<byte[]>? damage)
    {
        string path = FilterFiles.Healthy(files.Scratch(name), names: 1_000, sizeBytes: 1 << 20);
        string journal = FilterFiles.WithPendingJournal(path, from: 1_000, names: 200);
        if (damage is not null)
        {
            byte[] bytes = File.ReadAllBytes(journal);
            damage(bytes);
            File.WriteAllBytes(journal, bytes);
        }

        CliRun repair = CliRun.Of("repair", path);
        Assert.Equal(0, repair.ExitCode);
        return (Assert.Single(JournalLines(repair)), journal);
    }

    private static string[] JournalLines(CliRun run) =>
        [.. run.Stdout.Split('\n').Where(line => line.StartsWith("journal ", StringComparison.Ordinal)).Select(line => line.TrimEnd())];
}
