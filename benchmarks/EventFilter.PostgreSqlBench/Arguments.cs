using System.Globalization;

namespace EventFilter.PostgreSqlBench;

/// <summary>The command line as name/value pairs: <c>--name value</c>, or <c>--flag</c> alone.</summary>
internal sealed class Arguments(string[] args)
{
    public string[] All => args;

    public bool Has(string name) => args.Contains(name);

    public string? Get(string name) => args.SkipWhile(a => a != name).Skip(1).FirstOrDefault();

    public int Int(string name, int fallback) => Get(name) is { } text ? int.Parse(text, CultureInfo.InvariantCulture) : fallback;

    public string Connection => Get("--connection") ?? throw new InvalidOperationException("--connection is required");
}
