namespace EventFilter.Benchmarks.Experiments;

/// <summary>Prints rows as a GitHub markdown table, ready to paste into the experiment's docs/benchmarks-*.md page.</summary>
public static class MarkdownTable
{
    public static void Print(IReadOnlyList<string> headers, IEnumerable<IReadOnlyList<string>> rows)
    {
        Console.WriteLine("| " + string.Join(" | ", headers) + " |");
        Console.WriteLine("|" + string.Concat(headers.Select(_ => "---|")));
        foreach (IReadOnlyList<string> row in rows)
        {
            Console.WriteLine("| " + string.Join(" | ", row) + " |");
        }

        Console.WriteLine();
    }
}
