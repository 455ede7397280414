namespace EventFilter.Daemon.Commands;

/// <summary>
/// Redis's KEYS pattern language over bytes: <c>*</c>, <c>?</c>, <c>[abc]</c>, <c>[^a]</c>, <c>[a-z]</c> and
/// <c>\x</c> for a literal x. Backtracks only at the last <c>*</c>, so matching is linear in practice.
/// </summary>
internal static class KeyGlob
{
    public static bool Matches(ReadOnlySpan<byte> pattern, ReadOnlySpan<byte> key)
    {
        int p = 0, k = 0, starP = -1, starK = 0;
        while (k < key.Length)
        {
            if (p < pattern.Length && pattern[p] == (byte)'*')
            {
                starP = ++p;
                starK = k;
            }
            else if (p < pattern.Length && MatchOne(pattern, ref p, key[k]))
            {
                k++;
            }
            else if (starP >= 0)
            {
                p = starP;
                k = ++starK;
            }
            else
            {
                return false;
            }
        }

        while (p < pattern.Length && pattern[p] == (byte)'*')
        {
            p++;
        }

        return p == pattern.Length;
    }

    /// <summary>Matches one pattern element at <paramref name="p"/> against <paramref name="value"/>; moves past it when it matches.</summary>
    private static bool MatchOne(ReadOnlySpan<byte> pattern, ref int p, byte value)
    {
        byte head = pattern[p];
        if (head == (byte)'?')
        {
            p++;
            return true;
        }

        if (head == (byte)'\\' && p + 1 < pattern.Length)
        {
            bool escaped = pattern[p + 1] == value;
            p += escaped ? 2 : 0;
            return escaped;
        }

        if (head != (byte)'[')
        {
            p += head == value ? 1 : 0;
            return head == value;
        }

        int i = p + 1;
        bool negate = i < pattern.Length && pattern[i] == (byte)'^';
        i += negate ? 1 : 0;
        bool found = false;
        for (; i < pattern.Length && pattern[i] != (byte)']'; i++)
        {
            if (pattern[i] == (byte)'\\' && i + 1 < pattern.Length)
            {
                found |= pattern[++i] == value;
            }
            else if (i + 2 < pattern.Length && pattern[i + 1] == (byte)'-' && pattern[i + 2] != (byte)']')
            {
                found |= value >= Math.Min(pattern[i], pattern[i + 2]) && value <= Math.Max(pattern[i], pattern[i + 2]);
                i += 2;
            }
            else
            {
                found |= pattern[i] == value;
            }
        }

        if (found == negate)
        {
            return false;
        }

        p = Math.Min(i + 1, pattern.Length);
        return true;
    }
}
