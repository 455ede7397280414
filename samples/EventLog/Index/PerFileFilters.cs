namespace EventLog.Index;

/// <summary>Whether index files carry their own Bloom filter, and at what target false-positive rate.</summary>
/// <param name="Enabled">False reproduces an LSM index without per-file filters: every lookup reads every file.</param>
/// <param name="FalsePositiveRate">The rate each file's filter is sized for.</param>
internal readonly record struct PerFileFilters(bool Enabled, double FalsePositiveRate);
