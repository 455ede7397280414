using EventFilter.Statistics;

namespace EventFilter.Tests.Statistics;

public sealed class LogFactorialTests
{
    // ln(n!) to 25 digits, from mpmath.loggamma(n + 1) at 40 digits.
    [Theory]
    [InlineData(0, 0.0)]
    [InlineData(1, 0.0)]
    [InlineData(2, 0.6931471805599453094172321)]
    [InlineData(10, 15.10441257307551529522571)]
    [InlineData(31, 78.09222355331531063141681)]
    [InlineData(32, 81.55795945611503717850297)]
    [InlineData(33, 85.05446701758151741396016)]
    [InlineData(100, 363.73937555556349014408)]
    [InlineData(1000, 5912.128178488163348878131)]
    [InlineData(1e6, 12815518.38465816962425108)]
    [InlineData(1e9, 19723265848.22698260792313)]
    [InlineData(1e12, 26631021115943.28265730707)]
    public void Log_factorial_matches_known_values_to_a_few_units_in_the_last_place(double n, double expected)
    {
        double actual = LogFactorial.Of(n);

        Assert.InRange(Math.Abs(actual - expected), 0, 4 * Math.Max(double.Epsilon, Math.BitIncrement(expected) - expected));
    }
}
