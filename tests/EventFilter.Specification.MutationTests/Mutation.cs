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

    /// <summary>Log rule 2: its ReadAsync skips every record of one stream, so a catch-up never reads it back.</summary>
    ReadSkipsARecord,

    /// <summary>Log rule 2: a read from a position returns nothing the first time it is asked, and the records after.</summary>
    ReadComesBackEmptyOnce,

    /// <summary>Log rule 1: EndPosition lags the durable records by one (a cached end not refreshed after the last commit).</summary>
    EndLagsBehind,

    /// <summary>Log rule 1: EndPosition is three positions past the last record.</summary>
    EndAheadOfTheRecords,

    /// <summary>Log rule 1: every fifth read of EndPosition returns one less than the last (a cache that flaps), with no truncation.</summary>
    EndGoesBack,

    /// <summary>Log rule 3: a read that reaches the end sets NextPosition one past it.</summary>
    ReadsPastTheEnd,

    /// <summary>
    /// Log rule 2, with several processes: each process's log reads back only the records that process appended (as
    /// from a write-ahead log of its own), so its filter never learns the others' streams. Alone, it reads them all.
    /// </summary>
    ReadsOnlyItsOwnRecords,

    /// <summary>
    /// Log rule 1, with several processes: each process's EndPosition is cached and refreshed only at start and after
    /// its own commits (a database log's cached end without its timer), so it never covers the others' later records.
    /// </summary>
    EndCoversOnlyItsOwnAppends,
}
