namespace EventFilter.Daemon.Commands;

/// <summary>
/// One argument of a command as COMMAND DOCS describes it (Redis 7's argument tree: redis-cli builds its HELP and its
/// hints from it): a value of a type, a pure token, a choice of one (oneof) or a sequence (block), perhaps led by a
/// token, optional or repeated. Read from a compact syntax by <see cref="Parse"/>; see <see cref="CommandDocs"/>.
/// </summary>
internal sealed record CommandArgument(string Name, string Type, string? Token, bool Optional, bool Multiple, CommandArgument[] Arguments)
{
    /// <summary>
    /// Parses a command's arguments. The syntax: <c>name:type</c> a value (type key, string, integer, double or
    /// pattern); <c>!TOKEN</c> a pure token; <c>name(a|b)</c> one of; <c>name{a b}</c> a block; <c>TOKEN=</c> before
    /// any of these, the token that leads it; <c>[x]</c> optional; <c>x...</c> repeated.
    /// </summary>
    public static CommandArgument[] Parse(string syntax)
    {
        int position = 0;
        CommandArgument[] arguments = Sequence(syntax, ref position, end: '\0');
        return position == syntax.Length ? arguments : throw Malformed(syntax, position);
    }

    private static CommandArgument[] Sequence(string syntax, ref int position, char end)
    {
        var arguments = new List<CommandArgument>();
        while (true)
        {
            SkipSpaces(syntax, ref position);
            if (position == syntax.Length || syntax[position] == end || syntax[position] is '|' or ')')
            {
                return [.. arguments];
            }

            arguments.Add(Element(syntax, ref position));
        }
    }

    private static CommandArgument Element(string syntax, ref int position)
    {
        CommandArgument argument;
        if (syntax[position] == '[')
        {
            position++;
            argument = Element(syntax, ref position) with { Optional = true };
            Expect(syntax, ref position, ']');
        }
        else
        {
            argument = Atom(syntax, ref position);
        }

        if (string.CompareOrdinal(syntax, position, "...", 0, 3) == 0)
        {
            position += 3;
            argument = argument with { Multiple = true };
        }

        return argument;
    }

    private static CommandArgument Atom(string syntax, ref int position)
    {
        if (syntax[position] == '!')
        {
            position++;
            string token = Word(syntax, ref position);
            return new(token.ToLowerInvariant(), "pure-token", token, false, false, []);
        }

        string name = Word(syntax, ref position);
        string? leader = null;
        if (position < syntax.Length && syntax[position] == '=')
        {
            position++;
            leader = name;
            name = Word(syntax, ref position);
        }

        if (position == syntax.Length)
        {
            throw Malformed(syntax, position);
        }

        switch (syntax[position++])
        {
            case ':':
                return new(name, Word(syntax, ref position), leader, false, false, []);
            case '{':
                CommandArgument[] block = Sequence(syntax, ref position, '}');
                Expect(syntax, ref position, '}');
                return new(name, "block", leader, false, false, block);
            case '(':
                var choices = new List<CommandArgument>();
                do
                {
                    SkipSpaces(syntax, ref position);
                    choices.Add(Element(syntax, ref position));
                    SkipSpaces(syntax, ref position);
                }
                while (position < syntax.Length && syntax[position++] == '|');

                return syntax[position - 1] == ')' ? new(name, "oneof", leader, false, false, [.. choices]) : throw Malformed(syntax, position);
            default:
                throw Malformed(syntax, position - 1);
        }
    }

    private static string Word(string syntax, ref int position)
    {
        int start = position;
        while (position < syntax.Length && (char.IsAsciiLetterOrDigit(syntax[position]) || syntax[position] is '_' or '-'))
        {
            position++;
        }

        return position > start ? syntax[start..position] : throw Malformed(syntax, position);
    }

    private static void SkipSpaces(string syntax, ref int position)
    {
        while (position < syntax.Length && syntax[position] == ' ')
        {
            position++;
        }
    }

    private static void Expect(string syntax, ref int position, char expected)
    {
        SkipSpaces(syntax, ref position);
        if (position >= syntax.Length || syntax[position] != expected)
        {
            throw Malformed(syntax, position);
        }

        position++;
    }

    private static InvalidOperationException Malformed(string syntax, int position) =>
        new($"malformed argument syntax at {position}: '{syntax}'");
}
