namespace EventLog.Client;

/// <summary>How a load run ended.</summary>
/// <param name="Requested">Streams the run was asked to create.</param>
/// <param name="Created">Appends the server acknowledged (201): durable.</param>
/// <param name="Conflicts">Streams that already existed (409).</param>
/// <param name="Failed">Appends that failed otherwise.</param>
/// <param name="Elapsed">Wall time of the run.</param>
internal sealed record LoadResult(long Requested, long Created, long Conflicts, long Failed, TimeSpan Elapsed)
{
    /// <summary>True when every stream was created: the exit code is 0 then, 1 otherwise.</summary>
    public bool AllCreated => Created == Requested;

    public double AppendsPerSecond => Elapsed > TimeSpan.Zero ? (Created + Conflicts + Failed) / Elapsed.TotalSeconds : 0;
}
