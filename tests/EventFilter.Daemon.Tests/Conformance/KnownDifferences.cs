namespace EventFilter.Daemon.Tests.Conformance;

/// <summary>
/// Where eventfilterd deliberately answers otherwise than RedisBloom 2.4.23, each with its reason: the one table the
/// differential test forgives (docs/daemon.md, "Conformance with RedisBloom", shows it). An entry that applies
/// rewrites the two replies into a form they can be compared in, so that the rest of each reply is still compared.
/// </summary>
public static class KnownDifferences
{
    /// <summary>
    /// One deliberate difference: when it applies, the two replies rewritten; else null. <paramref name="KeyApart"/>:
    /// the command changed the key on one server only, so the test deletes it on both before going on.
    /// </summary>
    public sealed record Difference(string Name, string Reason, Func<ConformanceCommand, object?, object?, (object? Redis, object? Daemon)?> Rewrite, bool KeyApart = false);

    public static IReadOnlyList<Difference> All { get; } =
    [
        new("RESP3 booleans",
            "RedisBloom 2.4.23 answers BF.ADD, BF.MADD, BF.INSERT, BF.EXISTS and BF.MEXISTS with integers in RESP3 too; "
            + "eventfilterd with RESP3's booleans, the type RESP3 has for a yes/no answer",
            (command, redis, daemon) => command.Role != ItemRole.None && HasBoolean(daemon) && !HasBoolean(redis) ? (redis, BooleansAsIntegers(daemon)) : null),
        new("RESP3 BF.INFO map",
            "RedisBloom 2.4.23 answers BF.INFO with a flat array in RESP3 too; eventfilterd with a map, RESP3's type for label, value pairs",
            (command, redis, daemon) => command.Name == "BF.INFO" && daemon is RespMap map && redis is object?[]
                ? (redis, map.Entries.SelectMany(e => new[] { e.Key, e.Value }).ToArray()) : null),
        new("BF.INFO Size",
            "Size counts each server's own memory: RedisBloom's bit arrays and structs, eventfilterd's layer files of "
            + "480-bit lines (docs/daemon-design.md, Sizing); both are integers",
            (command, redis, daemon) => command.Name == "BF.INFO" && SizeOf(command, redis) is { } at && SizeOf(command, daemon) == at
                ? (WithoutSize(redis, at), WithoutSize(daemon, at)) : null),
        new("RedisBloom's errors without a class",
            "RedisBloom 2.4.23 sends some errors without a class (BF.INSERT's 'Bad capacity', 'Bad error rate', 'Bad expansion', "
            + "'Bad argument received', 'Unknown argument received'; BF.RESERVE's 'Nonscaling filters cannot expand'; BF.INFO's "
            + "'Invalid information value'), so a client takes their first word for the class; eventfilterd starts every error with ERR, "
            + "as Redis's own errors and RedisBloom's others do",
            (_, redis, daemon) => redis is RespError error && !HasClass(error) ? (new RespError($"ERR {error.Message}"), daemon) : null),
        new("RedisBloom's trailing space",
            "RedisBloom 2.4.23's 'ERR (0 < error rate range < 1) ' ends in a space; eventfilterd's does not",
            (_, redis, daemon) => redis is RespError error && error.Message.EndsWith(' ') ? (new RespError(error.Message.TrimEnd()), daemon) : null),
        new("Argument errors' texts",
            "RedisBloom 2.4.23 checks BF.RESERVE's and BF.INSERT's arguments in another order (it finds an option's value before "
            + "checking the next option, and checks ranges after all options) and words some refusals otherwise ('ERR no expansion', "
            + "'Bad capacity' where eventfilterd says 'ERR syntax error' or names the range); both refuse the command with ERR and "
            + "change nothing",
            (command, redis, daemon) => command.Name is "BF.RESERVE" or "BF.INSERT" && IsArgumentError(redis) && IsArgumentError(daemon) ? (daemon, daemon) : null),
        new("BF.RESERVE's unknown arguments",
            "RedisBloom 2.4.23 ignores any BF.RESERVE argument it does not look for (a stray word, a misspelt NONSCALING, a "
            + "second EXPANSION) and makes the filter; eventfilterd answers ERR syntax error, so that a typo cannot make a "
            + "scaling filter silently",
            (command, redis, daemon) => command.Name == "BF.RESERVE" && daemon is RespError { Message: "ERR syntax error" } && redis is "OK" or RespError { Message: "ERR item exists" }
                ? (daemon, daemon) : null,
            KeyApart: true),
        new("BF.INSERT's contradictory options",
            "RedisBloom 2.4.23 takes NOCREATE with CAPACITY or ERROR, and NONSCALING with EXPANSION, and ignores the option "
            + "that cannot apply; eventfilterd refuses the command (docs/daemon.md, Commands)",
            (command, redis, daemon) => command.Name == "BF.INSERT" && daemon is RespError { Message: "ERR NOCREATE cannot be used with CAPACITY or ERROR" or "ERR Non scaling filters cannot expand" }
                && !IsArgumentError(redis) ? (daemon, daemon) : null,
            KeyApart: true),
        new("BF.INSERT's option words",
            "RedisBloom 2.4.23 reads only an option's first letters: any word starting with i is ITEMS (so items sent without "
            + "ITEMS are added from the second one on), c is CAPACITY, e ERROR or EXPANSION, n NOCREATE or NONSCALING; "
            + "eventfilterd takes only the options' names and answers ERR syntax error",
            (command, redis, daemon) => command.Name == "BF.INSERT" && daemon is RespError { Message: "ERR syntax error" } && !IsArgumentError(redis)
                ? (daemon, daemon) : null,
            KeyApart: true),
        new("Hexadecimal error rates",
            "RedisBloom parses an error rate with C's strtod, which also reads hexadecimal floating point (0x1p-4 is 0.0625); "
            + "eventfilterd reads decimal numbers only and answers ERR bad error rate",
            (command, redis, daemon) => command.Name is "BF.RESERVE" or "BF.INSERT" && daemon is RespError { Message: "ERR bad error rate" }
                && command.Arguments.Any(a => a.StartsWith("0x", StringComparison.OrdinalIgnoreCase)) ? (daemon, daemon) : null,
            KeyApart: true),
        new("BF.INSERT's repeated options",
            "RedisBloom 2.4.23 checks the ranges of BF.INSERT's values once, after reading all options, so of a repeated option "
            + "only the last value is checked; eventfilterd refuses any value out of range where it stands",
            (command, redis, daemon) => command.Name == "BF.INSERT" && IsArgumentError(daemon) && redis is object?[] && HasRepeatedOption(command)
                ? (daemon, daemon) : null,
            KeyApart: true),
    ];

    private static bool HasRepeatedOption(ConformanceCommand command) =>
        command.Arguments.Select(a => a.ToUpperInvariant()).Where(a => a is "CAPACITY" or "ERROR" or "EXPANSION").GroupBy(a => a).Any(g => g.Count() > 1);

    /// <summary>Whether an error starts with a class, an upper-case word, as Redis's own do (ERR, WRONGTYPE, NOAUTH).</summary>
    private static bool HasClass(RespError error) => Replies.ErrorClass(error) is { Length: > 0 } word && word.All(char.IsAsciiLetterUpper);

    /// <summary>An ERR refusal of the arguments: any error but those of the key's state.</summary>
    private static bool IsArgumentError(object? reply) =>
        reply is RespError { Message: not ("ERR item exists" or "ERR not found" or "ERR non scaling filter is full") } error && Replies.ErrorClass(error) == "ERR";

    private static bool HasBoolean(object? reply) => reply is bool || (reply is object?[] array && array.Any(e => e is bool));

    private static object? BooleansAsIntegers(object? reply) => reply switch
    {
        bool flag => flag ? 1L : 0L,
        object?[] array => array.Select(BooleansAsIntegers).ToArray(),
        _ => reply,
    };

    /// <summary>Where Size's value is in a BF.INFO reply (the flat array, or BF.INFO key SIZE's one value); null when it has none.</summary>
    private static int? SizeOf(ConformanceCommand command, object? reply) => reply switch
    {
        object?[] { Length: 1 } when command.Arguments.Length == 3 && command.Arguments[2].Equals("SIZE", StringComparison.OrdinalIgnoreCase) => 0,
        object?[] { Length: 10 } array when array[2] is "Size" => 3,
        _ => null,
    };

    private static object?[] WithoutSize(object? reply, int at)
    {
        object?[] copy = [.. (object?[])reply!];
        copy[at] = copy[at] is long ? 0L : copy[at];
        return copy;
    }
}
