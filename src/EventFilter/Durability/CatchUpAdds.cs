namespace EventFilter.Durability;

/// <summary>
/// How a catch-up adds what it reads (docs/design.md, "Hot path"). Only <see cref="Regions"/> is meant for use; the
/// others stay so that the <c>scale</c> experiment measures the previous path and the rejected one in the same run
/// (docs/decisions/catch-up-by-region.md).
/// </summary>
internal enum CatchUpAdds
{
    /// <summary>Large batches, partitioned by line region and added region by region, on every catch-up thread.</summary>
    Regions,

    /// <summary>The previous path: 4,096-record reads through the 64-name hash-and-prefetch pipeline, one thread.</summary>
    Pipeline,

    /// <summary>Large batches hashed and added in log order with the deep prefetch, not partitioned: rejected.</summary>
    Unpartitioned,
}
