using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// A named filter's chain of layers: the item with index <c>i</c> in its digest log belongs to the layer whose range
/// holds <c>i</c>, and a new layer is opened when the last one is full, as RedisBloom grows (a non-scaling filter
/// stops instead). Used under the filter's add lock; the list only grows until <see cref="Dispose"/>. Layer 0 is owed
/// from the filter's create until its file opens (or the filter goes): <paramref name="firstLayer"/> claims its
/// descriptors meanwhile, so that a filter counts the same in the budget whatever its state (DescriptorBudget).
/// </summary>
internal sealed class LayerChain(string directory, FilterParameters parameters, FilterObserver observer, DescriptorClaim firstLayer) : IDisposable
{
    private readonly List<FilterLayer> _layers = [];

    public int Count => _layers.Count;

    public bool MightExist(ulong digest)
    {
        foreach (FilterLayer layer in _layers)
        {
            if (layer.File.MightExistHash(digest))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>
    /// Adds <paramref name="digest"/>, the item of index <paramref name="index"/>, to its layer, opening layer 0 or
    /// growing the chain first when needed; anything but <see cref="AddOutcome.Done"/> adds nothing.
    /// </summary>
    public AddOutcome Add(ulong digest, long index, DigestLog log)
    {
        if (_layers.Count == 0)
        {
            Open(0, log, firstLayer);
        }

        if (index >= _layers[^1].Start + _layers[^1].Capacity && Grow(log) is var outcome and not AddOutcome.Done)
        {
            return outcome;
        }

        _layers[^1].File.AddHash(digest);
        return AddOutcome.Done;
    }

    /// <summary>
    /// Adds a restore's items, the first of index <paramref name="index"/>, each to the layer its index belongs to (a
    /// new layer when the last is full, as the dumped filter grew). The caller checked that the parameters allow them.
    /// </summary>
    public void AddRestored(ReadOnlySpan<ulong> digests, long index, DigestLog log)
    {
        for (int done = 0; done < digests.Length;)
        {
            if (_layers.Count == 0 || index >= _layers[^1].Start + _layers[^1].Capacity)
            {
                // A later layer is counted as it opens: the dump's layers were checked to fit its parameters, not the budget.
                Open(_layers.Count, log, _layers.Count == 0 ? firstLayer : null);
            }

            FilterLayer layer = _layers[^1];
            int take = (int)Math.Min(digests.Length - done, layer.Start + layer.Capacity - index);
            layer.File.AddHashes(digests.Slice(done, take));
            done += take;
            index += take;
        }
    }

    /// <summary>
    /// Opens each layer the log's records reach (none for a log without records), each caught up: layer 0 on its claim,
    /// the others on <paramref name="laterLayers"/> (counted as they open without one: a start counted them).
    /// </summary>
    public void OpenToEnd(DigestLog log, DescriptorClaim? laterLayers = null)
    {
        long records = log.Records;
        while (records > 0 && (_layers.Count == 0 || _layers[^1].Start + _layers[^1].Capacity < records))
        {
            Open(_layers.Count, log, _layers.Count == 0 ? firstLayer : laterLayers);
        }
    }

    /// <summary>The layers now, for a checkpoint that runs outside the add lock.</summary>
    public FilterLayer[] Snapshot() => [.. _layers];

    /// <summary>BF.INFO's figures: layer 0 exists from BF.RESERVE on, as in RedisBloom, though its file waits for the first add.</summary>
    public (long Capacity, long SizeBytes, int Layers) Describe() => _layers.Count == 0
        ? (parameters.LayerCapacity(0), parameters.LayerOptions(0)?.SizeBytes ?? 0, 1)
        : (_layers.Sum(l => l.Capacity), _layers.Sum(l => l.SizeBytes), _layers.Count);

    public void Dispose()
    {
        foreach (FilterLayer layer in _layers)
        {
            layer.Dispose();
        }

        _layers.Clear();
        firstLayer.Dispose();
    }

    private AddOutcome Grow(DigestLog log)
    {
        if (parameters.NonScaling)
        {
            return AddOutcome.Full;
        }

        if (_layers.Count >= FilterParameters.MaxLayers || parameters.LayerOptions(_layers.Count) is null)
        {
            return AddOutcome.CannotGrow;
        }

        using DescriptorClaim? claim = DescriptorBudget.TryClaim(DescriptorBudget.DescriptorsPerLayer);
        if (claim is null)
        {
            return AddOutcome.NoDescriptors;
        }

        Open(_layers.Count, log, claim);
        return AddOutcome.Done;
    }

    /// <summary>Opens layer <paramref name="layer"/>, its descriptors drawn from <paramref name="claim"/> (counted as it opens without one).</summary>
    private void Open(int layer, DigestLog log, DescriptorClaim? claim)
    {
        FilterFileOptions options = parameters.LayerOptions(layer)
            ?? throw new InvalidDataException($"layer {layer} of '{directory}' would exceed {FilterParameters.MaxLayerBytes} bytes");

        // No fsync for a new layer file: the digest log rebuilds one that power loss left missing or torn, and a
        // checkpoint fsyncs whatever it vouches for (docs/daemon-design.md, "Durability"). A layer opened while a write of
        // the log runs outside the add lock reads nothing of it: no record at or past its start exists yet.
        _layers.Add(FilterLayer.Open(directory, layer, log, options, observer, claim, syncOnCreate: false));
    }
}
