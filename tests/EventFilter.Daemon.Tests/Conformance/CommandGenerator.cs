namespace EventFilter.Daemon.Tests.Conformance;

/// <summary>
/// Random command sequences over a handful of keys, from one seed: every BF.* command the daemon serves with valid
/// and invalid arguments (wrong arities, non-numbers, negatives, zeros, rates out of range, options in any order and
/// case), and DEL, EXISTS and KEYS. Capacities stay small so that filters fill, scale and refuse within a few
/// thousand commands, and never large: RedisBloom allocates its filters whole.
/// </summary>
public sealed class CommandGenerator(int seed)
{
    private static readonly string[] Keys = ["k0", "k1", "k2", "k3", "k4"];
    private static readonly string[] Rates = ["0.01", "0.001", "0.1", "0.5", "1e-3", ".05", "0.0001"];
    private static readonly string[] BadRates = ["0", "1", "-0.01", "1.5", "abc", "", "nan", "inf", "-inf", " 0.01", "0.01 ", "0,01", "1e-400", "0x1p-4"];
    private static readonly string[] Capacities = ["1", "2", "5", "10", "50", "100", "1000"];
    private static readonly string[] BadCapacities = ["0", "-5", "abc", "1.5", "", "99999999999999999999", "+10", " 10", "1e3", "0x10", "010"];
    private static readonly string[] Expansions = ["1", "2", "3", "4"];
    private static readonly string[] BadExpansions = ["x", "", "1.5", "2e0"];
    private static readonly string[] InfoFields = ["CAPACITY", "SIZE", "FILTERS", "ITEMS", "EXPANSION", "capacity", "Items", "FOO", ""];
    private static readonly string[] Patterns = ["*", "k*", "k[0-2]", "?1", "k[^0]", "nothing*"];

    private readonly Random _random = new(seed);

    public ConformanceCommand Next()
    {
        int pick = _random.Next(100);
        return pick switch
        {
            < 10 => Reserve(),
            < 28 => Add(),
            < 38 => MultiAdd("BF.MADD"),
            < 50 => Lookup(),
            < 58 => MultiLookup(),
            < 70 => Insert(),
            < 76 => Info(),
            < 81 => Plain("BF.CARD", Key()),
            < 85 => Plain(["DEL", .. KeyList()]),
            < 88 => Plain(["EXISTS", .. KeyList()]),
            < 90 => Plain("KEYS", One(Patterns)),
            < 92 => Plain("TYPE", Key()),
            _ => WrongArity(),
        };
    }

    private ConformanceCommand Reserve()
    {
        List<string> arguments = [Name("BF.RESERVE"), Key(), Chance(85) ? One(Rates) : One(BadRates), Chance(85) ? One(Capacities) : One(BadCapacities)];
        int options = _random.Next(4);
        for (int i = 0; i < options; i++)
        {
            arguments.AddRange(_random.Next(8) switch
            {
                < 3 => [Case("NONSCALING")],
                < 6 => [Case("EXPANSION"), Chance(85) ? One(Expansions) : One(BadExpansions)],
                6 => [Case("EXPANSION")],
                _ => ["FOO"],
            });
        }

        return Plain([.. arguments]);
    }

    private ConformanceCommand Add()
    {
        string key = Key(), item = Item();
        return new([Name("BF.ADD"), key, item], ItemRole.Add, key, [item]);
    }

    private ConformanceCommand MultiAdd(string name)
    {
        string key = Key();
        string[] items = Items();
        return new([Name(name), key, .. items], ItemRole.Add, key, items);
    }

    private ConformanceCommand Lookup()
    {
        string key = Key(), item = Item();
        return new([Name("BF.EXISTS"), key, item], ItemRole.Lookup, key, [item]);
    }

    private ConformanceCommand MultiLookup()
    {
        string key = Key();
        string[] items = Items();
        return new([Name("BF.MEXISTS"), key, .. items], ItemRole.Lookup, key, items);
    }

    /// <summary>BF.INSERT's options in any order and case, now and then one malformed, then ITEMS and the items.</summary>
    private ConformanceCommand Insert()
    {
        string key = Key();
        List<string> arguments = [Name("BF.INSERT"), key];
        int options = _random.Next(4);
        for (int i = 0; i < options; i++)
        {
            arguments.AddRange(_random.Next(12) switch
            {
                < 2 => [Case("CAPACITY"), Chance(85) ? One(Capacities) : One(BadCapacities)],
                < 4 => [Case("ERROR"), Chance(85) ? One(Rates) : One(BadRates)],
                < 6 => [Case("EXPANSION"), Chance(85) ? One(Expansions) : One(["0", "-1", .. BadExpansions])],
                < 8 => [Case("NOCREATE")],
                < 10 => [Case("NONSCALING")],
                10 => ["FOO"],
                _ => [Case(One(["CAPACITY", "ERROR", "EXPANSION"]))],
            });
        }

        string[] items = Chance(95) ? Items() : [];
        if (Chance(97))
        {
            arguments.Add(Case("ITEMS"));
        }

        return new([.. arguments, .. items], ItemRole.Add, key, items);
    }

    private ConformanceCommand Info() =>
        Chance(60) ? Plain(Name("BF.INFO"), Key()) : Plain(Name("BF.INFO"), Key(), One(InfoFields));

    /// <summary>A BF.* command with too few or too many arguments.</summary>
    private ConformanceCommand WrongArity()
    {
        string key = Key();
        return _random.Next(11) switch
        {
            0 => Plain(Name("BF.RESERVE"), key, "0.01"),
            1 => Plain(Name("BF.RESERVE"), key, "0.01", "100", "NONSCALING", "EXPANSION", "2", "FOO"),
            2 => Plain(Name("BF.ADD"), key),
            3 => Plain(Name("BF.ADD"), key, Item(), Item()),
            4 => Plain(Name("BF.MADD"), key),
            5 => Plain(Name("BF.EXISTS"), key, Item(), Item()),
            6 => Plain(Name("BF.MEXISTS"), key),
            7 => Plain(Name("BF.INSERT"), key, "ITEMS"),
            8 => Plain(Name("BF.INFO"), key, "CAPACITY", "SIZE"),
            9 => Plain(Name("BF.CARD"), key, key),
            _ => Plain(Name(One(["BF.CARD", "BF.INFO", "DEL", "EXISTS", "KEYS", "TYPE"]))),
        };
    }

    private static ConformanceCommand Plain(params string[] arguments) =>
        new(arguments, ItemRole.None, arguments.Length > 1 ? arguments[1] : null, []);

    private string[] KeyList() => [.. Enumerable.Range(0, 1 + _random.Next(3)).Select(_ => Key())];

    private string[] Items() => [.. Enumerable.Range(0, 1 + _random.Next(5)).Select(_ => Item())];

    private string Key() => Chance(97) ? One(Keys) : "missing";

    /// <summary>Items from a pool of 400 per run, so that adds repeat and lookups find items added before.</summary>
    private string Item() => $"i{_random.Next(400)}";

    /// <summary>Command names and keywords in upper case mostly, else lower or mixed: both servers take any case.</summary>
    private string Name(string name) => Case(name);

    private string Case(string word) => _random.Next(10) switch
    {
        0 => word.ToLowerInvariant(),
        1 => string.Concat(word.Select((c, i) => i % 2 == 0 ? char.ToLowerInvariant(c) : c)),
        _ => word,
    };

    private string One(string[] choices) => choices[_random.Next(choices.Length)];

    private bool Chance(int percent) => _random.Next(100) < percent;
}
