namespace EventFilter.Tests.Statistics;

/// <summary>A filter's false-positive rate as measured: the first names of <see cref="Names.Added"/> in, as many of <see cref="Names.Absent"/> asked.</summary>
public static class MeasuredFalsePositives
{
    public static double Rate(FilterFile filter, int streams, int absentQueries)
    {
        for (int i = 0; i < streams; i++)
        {
            filter.Add(Names.Added(i));
        }

        int falsePositives = 0;
        for (int i = 0; i < absentQueries; i++)
        {
            falsePositives += filter.MightExist(Names.Absent(i)) ? 1 : 0;
        }

        return (double)falsePositives / absentQueries;
    }
}
