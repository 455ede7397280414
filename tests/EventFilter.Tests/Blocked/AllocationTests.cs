using System.Text;

namespace EventFilter.Tests.Blocked;

/// <summary>The hot paths allocate nothing; a regression here shows up as GC pauses in the server.</summary>
public sealed class AllocationTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void Add_and_MightExist_allocate_nothing_in_either_form()
    {
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = 1 << 20 });
        string[] names = Enumerable.Range(0, 256).Select(Names.Added).Append("заказ-🚀-non-ascii").ToArray();
        byte[][] utf8 = names.Select(Encoding.UTF8.GetBytes).ToArray();
        byte[] packed = utf8.SelectMany(b => b).ToArray();
        int[] lengths = utf8.Select(b => b.Length).ToArray();
        var results = new bool[names.Length];

        void Work()
        {
            for (int i = 0; i < names.Length; i++)
            {
                filter.Add(names[i]);
                filter.Add(utf8[i]);
                _ = filter.MightExist(names[i]);
                _ = filter.MightExist(utf8[i]);
            }

            filter.AddBatch(names);
            filter.MightExistBatch(names, results);
            filter.AddBatch(packed, lengths);
            filter.MightExistBatch(packed, lengths, results);
        }

        Assert.Equal(0, SteadyAllocations.Of(Work));
    }
}
