namespace EventFilter.DaemonBench;

/// <summary>
/// One value per server of the table, in the order every row measures them: eventfilterd, then Redis's sets, then
/// RedisBloom. A peer left out of the run is null, and so is a peer's figure for a row that does not apply to it.
/// </summary>
internal sealed record Contenders<T>(T Ours, T? Redis, T? RedisBloom)
    where T : class
{
    /// <summary>
    /// <paramref name="pick"/> applied to ours and then to each peer present, back to back, so that a change in the
    /// machine's load hits every server alike. Ours must always have a value.
    /// </summary>
    public Contenders<TResult> Select<TResult>(Func<T, TResult?> pick)
        where TResult : class =>
        new(pick(Ours) ?? throw new InvalidOperationException("eventfilterd has no figure for this row"),
            Redis is null ? null : pick(Redis),
            RedisBloom is null ? null : pick(RedisBloom));
}
