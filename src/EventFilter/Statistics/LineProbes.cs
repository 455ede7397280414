using EventFilter.Format;

namespace EventFilter.Statistics;

/// <summary>
/// The chance that an absent name's k probes all find set bits in a line that holds j names, exactly, for j = 0, 1, 2 ...
/// in turn. Probes are uniform draws from the line's 480 bits, with repeats, as the probe sequence's are: a name's k
/// probes cover d distinct bits with a chance that depends on k alone, and d given bits are all set after t probes of the
/// line's names with chance covered[d](t), where covered[d](t + 1) = d/480 · covered[d - 1](t) + (1 - d/480) · covered[d](t)
/// (the first of the t + 1 probes hits one of the d bits, or not). Every term is a sum of positive parts, so the chances
/// stay exact to rounding where an inclusion-exclusion sum would cancel. docs/design.md, section "False positives".
/// </summary>
internal ref struct LineProbes
{
    private readonly int _k;
    private readonly Span<double> _distinct;
    private readonly Span<double> _covered;

    /// <param name="k">Probes per name.</param>
    /// <param name="distinct">k + 1 doubles of scratch: the chance a name's k probes cover d distinct bits.</param>
    /// <param name="covered">k + 1 doubles of scratch: the chance d given bits are all set, for the line as it stands.</param>
    public LineProbes(int k, Span<double> distinct, Span<double> covered)
    {
        _k = k;
        _distinct = distinct[..(k + 1)];
        _covered = covered[..(k + 1)];
        _distinct.Clear();
        _distinct[0] = 1;
        for (int probe = 0; probe < k; probe++)
        {
            Draw(_distinct);
        }

        _covered.Clear();
        _covered[0] = 1; // an empty line: only the empty set of bits is all set
    }

    /// <summary>The chance that an absent name's k probes are all set in the line as it stands.</summary>
    public readonly double AllSet()
    {
        double chance = 0;
        for (int d = 1; d <= _k; d++)
        {
            chance += _distinct[d] * _covered[d];
        }

        return chance;
    }

    /// <summary>One more name in the line: k more probes.</summary>
    public readonly void AddName()
    {
        for (int probe = 0; probe < _k; probe++)
        {
            AddProbe();
        }
    }

    /// <summary>One more probe in the line, of whichever name: a line of a spread filter takes names' probes in shares of other sizes than k.</summary>
    public readonly void AddProbe()
    {
        for (int d = _k; d >= 1; d--)
        {
            double hit = (double)d / FilterGeometry.BitsPerLine;
            _covered[d] = (hit * _covered[d - 1]) + ((1 - hit) * _covered[d]);
        }
    }

    // One more probe of a name: it lands on one of the d bits already drawn, or on one of the 480 - (d - 1) not yet drawn.
    private static void Draw(Span<double> distinct)
    {
        const double bits = FilterGeometry.BitsPerLine;
        for (int d = distinct.Length - 1; d >= 1; d--)
        {
            distinct[d] = (distinct[d] * d / bits) + (distinct[d - 1] * (bits - d + 1) / bits);
        }

        distinct[0] = 0;
    }
}
