namespace EventFilter.Daemon.Tests.Conformance;

/// <summary>
/// Compares RedisBloom's and eventfilterd's replies to one command: the known differences first
/// (<see cref="KnownDifferences"/>), then type and value, with false positives forgiven. It keeps which items each
/// key was sent to add, since only an item never added may be a false positive: an add may answer 0 on one side, a
/// lookup 1, and nothing else may differ.
/// </summary>
public sealed class ReplyJudge
{
    private readonly Dictionary<string, HashSet<string>> _added = new(StringComparer.Ordinal);

    /// <summary>How often each known difference was needed, by name.</summary>
    public Dictionary<string, int> DifferencesSeen { get; } = KnownDifferences.All.ToDictionary(d => d.Name, _ => 0);

    /// <summary>Answers that differed by a false positive (an add answering 0, or a lookup 1, on one side only).</summary>
    public int FalsePositives { get; private set; }

    /// <summary>The verdict: null when the replies agree, else why not.</summary>
    public Verdict Judge(ConformanceCommand command, object? redis, object? daemon)
    {
        bool keyApart = false;
        foreach (KnownDifferences.Difference difference in KnownDifferences.All)
        {
            if (difference.Rewrite(command, redis, daemon) is { } rewritten)
            {
                (redis, daemon) = rewritten;
                DifferencesSeen[difference.Name]++;
                keyApart |= difference.KeyApart;
            }
        }

        if (command.Name == "KEYS" && redis is object?[] redisKeys && daemon is object?[] daemonKeys)
        {
            // KEYS promises no order, on either server.
            (redis, daemon) = (Sorted(redisKeys), Sorted(daemonKeys));
        }

        if (Replies.Same(redis, daemon))
        {
            Remember(command, redis);
            return new(null, keyApart);
        }

        if (command.Role == ItemRole.None)
        {
            return new("different replies", KeyApart: command.Writes);
        }

        return CompareAnswers(command, redis, daemon);
    }

    /// <summary>The two servers' filters of the key were deleted to bring them together again.</summary>
    public void Forget(string key) => _added.Remove(key);

    /// <summary>Compares answer by answer, forgiving false positives for items never added.</summary>
    private Verdict CompareAnswers(ConformanceCommand command, object? redis, object? daemon)
    {
        object?[] redisAnswers = redis as object?[] ?? [redis];
        object?[] daemonAnswers = daemon as object?[] ?? [daemon];
        if ((redis is object?[]) != (daemon is object?[]))
        {
            return new("one reply is an array, the other not", KeyApart: command.Writes);
        }

        HashSet<string> added = AddedTo(command.Key!);
        bool counted = false;
        for (int i = 0; i < Math.Min(redisAnswers.Length, daemonAnswers.Length); i++)
        {
            if (Replies.Same(redisAnswers[i], daemonAnswers[i]))
            {
                continue;
            }

            bool falsePositive = redisAnswers[i] is 0L or 1L && daemonAnswers[i] is 0L or 1L && i < command.Items.Length && !added.Contains(command.Items[i]);
            if (!falsePositive)
            {
                return new($"answer {i} differs", KeyApart: command.Writes);
            }

            FalsePositives++;
            counted |= command.Role == ItemRole.Add;
        }

        // After an add's false positive the two filters count differently, so a non-scaling one may fill at
        // different items of the same command.
        if (redisAnswers.Length != daemonAnswers.Length && !counted)
        {
            return new("different numbers of answers", KeyApart: command.Writes);
        }

        Remember(command, redis);
        return new(null, KeyApart: counted);
    }

    private void Remember(ConformanceCommand command, object? reply)
    {
        if (command.Role != ItemRole.Add)
        {
            if (command.Name == "DEL" && reply is long)
            {
                foreach (string key in command.Arguments.Skip(1))
                {
                    _added.Remove(key);
                }
            }

            return;
        }

        object?[] answers = reply as object?[] ?? [reply];
        for (int i = 0; i < Math.Min(answers.Length, command.Items.Length); i++)
        {
            if (answers[i] is long)
            {
                AddedTo(command.Key!).Add(command.Items[i]);
            }
        }
    }

    private HashSet<string> AddedTo(string key) =>
        _added.TryGetValue(key, out HashSet<string>? items) ? items : _added[key] = new(StringComparer.Ordinal);

    private static object?[] Sorted(object?[] keys) =>
        [.. keys.OrderBy(k => k is byte[] bytes ? System.Text.Encoding.UTF8.GetString(bytes) : "", StringComparer.Ordinal)];
}

/// <summary>A judgement: the mismatch (null when none), and whether the command may have left the key different on the two servers.</summary>
public sealed record Verdict(string? Mismatch, bool KeyApart);
