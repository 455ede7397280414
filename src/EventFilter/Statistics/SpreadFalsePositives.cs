using EventFilter.Format;

namespace EventFilter.Statistics;

/// <summary>
/// The false-positive model of <see cref="FalsePositiveModel"/> for keys spread over L lines (docs/design.md, "Lines per
/// key"). Each key puts its probes in L distinct lines: <c>k mod L</c> slots take <c>k / L + 1</c> probes ("many"), the
/// others <c>k / L</c> ("few"). Every line is slot j of Poisson(n / lines) keys for each j, so its probes are many ×
/// Poisson((k mod L) n / lines) plus few × Poisson((L - k mod L) n / lines). An absent key's slots land on independent
/// lines: its rate is the product over slots of the chance that the slot's probes are all set in such a line
/// (<see cref="LineProbes"/>, advanced probe by probe).
/// </summary>
internal static class SpreadFalsePositives
{
    /// <summary>Where 1 - (all probes set) is below this, a line counts as saturated, as in <see cref="FalsePositiveModel"/>.</summary>
    private const double SaturationSlack = 1.0 / (1L << 53);

    public static double Expected(double names, long lines, int k, int linesPerKey)
    {
        double visits = names / lines;
        if (visits <= 0)
        {
            return 0;
        }

        int few = k / linesPerKey;
        int manySlots = k % linesPerKey;
        int fewSlots = linesPerKey - manySlots;
        int many = few + 1;

        // All-set chances by the line's probe count, up to where every query's probes are set to within double rounding
        // (some thousands of probes); a line with more visits than that takes is saturated, whatever the mean.
        double keepClear = Math.Log(1 - (1.0 / FilterGeometry.BitsPerLine));
        int saturation = (int)Math.Ceiling(Math.Log(SaturationSlack / many) / keepClear);
        Span<double> manyPoisson = Poisson(manySlots * visits, (saturation / many) + 1, out int manyFrom);
        Span<double> fewPoisson = Poisson(fewSlots * visits, (saturation / Math.Max(few, 1)) + 1, out int fewFrom);
        long highest = ((long)many * (manyFrom + manyPoisson.Length - 1)) + ((long)few * (fewFrom + fewPoisson.Length - 1));
        int saturated = (int)Math.Min(highest + 1, saturation);
        double[] manySet = new double[saturated + 1];
        double[] fewSet = new double[saturated + 1];
        var manyProbes = new LineProbes(many, stackalloc double[many + 1], stackalloc double[many + 1]);
        var fewProbes = new LineProbes(Math.Max(few, 1), stackalloc double[few + 2], stackalloc double[few + 2]);
        for (int t = 0; t <= saturated; t++)
        {
            manySet[t] = manyProbes.AllSet();
            fewSet[t] = fewProbes.AllSet();
            manyProbes.AddProbe();
            fewProbes.AddProbe();
        }

        double manyRate = 0, fewRate = 0;
        for (int y = 0; y < manyPoisson.Length; y++)
        {
            for (int z = 0; z < fewPoisson.Length; z++)
            {
                long probes = ((long)many * (manyFrom + y)) + ((long)few * (fewFrom + z));
                double mass = manyPoisson[y] * fewPoisson[z];
                manyRate += mass * (probes < saturated ? manySet[probes] : 1);
                fewRate += mass * (probes < saturated ? fewSet[probes] : 1);
            }
        }

        return Math.Pow(manyRate, manySlots) * (few == 0 ? 1 : Math.Pow(fewRate, fewSlots));
    }

    /// <summary>
    /// The Poisson(<paramref name="mean"/>) masses within 12 standard deviations of the mean, from <paramref name="from"/>
    /// on; from <paramref name="saturated"/> visits on (where every probe is set) the rest of the mass is lumped into one.
    /// </summary>
    private static double[] Poisson(double mean, int saturated, out int from)
    {
        if (mean <= 0)
        {
            from = 0;
            return [1];
        }

        double spread = (12 * Math.Sqrt(mean)) + 12;
        double lowest = Math.Max(0, Math.Floor(mean - spread));
        if (lowest >= saturated)
        {
            from = saturated;
            return [1];
        }

        from = (int)lowest;
        int to = (int)Math.Min(saturated, Math.Ceiling(mean + spread));
        double[] masses = new double[to - from + 1];
        double logFactorial = LogFactorial.Of(from);
        double sum = 0;
        for (int j = from; j <= to; j++)
        {
            logFactorial += j > from ? Math.Log(j) : 0;
            masses[j - from] = Math.Exp((j * Math.Log(mean)) - mean - logFactorial);
            sum += j < to ? masses[j - from] : 0;
        }

        if (to == saturated)
        {
            masses[^1] = Math.Max(0, 1 - sum);
        }

        return masses;
    }
}
