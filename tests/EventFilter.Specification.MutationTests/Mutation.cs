namespace EventFilter.Specification.MutationTests;

/// <summary>How <see cref="InMemoryHost"/> breaks the host contract; <see cref="None"/> keeps it.</summary>
public enum Mutation
{
    None,

    /// <summary>Rule 1: adds a record of its own while it starts, before the filter is open.</summary>
    AddsWhileStarting,

    /// <summary>Rule 2: never adds every tenth record.</summary>
    SkipsSomeAdds,

    /// <summary>Rule 2: gives each add its record's start instead of the position just past it.</summary>
    GivesTheRecordStart,

    /// <summary>
    /// Rule 2: gives each add the log's durable end at the time, which is what the filter assumed before the end
    /// travelled with the add (an interface member defaulting to the durable end) for a host that adds before its fsync.
    /// </summary>
    GivesTheDurableEnd,

    /// <summary>Rule 3: adds after the fsync, two records at a time in the wrong order, and checkpoints between them.</summary>
    AddsOutOfOrderAroundItsCheckpoint,

    /// <summary>Rule 4: cuts its running log without telling the filter.</summary>
    CutsWithoutTelling,

    /// <summary>Rule 5: its stop returns at once, and it appends (and adds) after the filter has closed.</summary>
    AppendsAfterStopping,

    /// <summary>The log: its ReadAsync skips every record of one stream, so a catch-up never reads it back.</summary>
    ReadSkipsARecord,
}
