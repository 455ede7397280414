using EventLog.Streams;

namespace EventLog.Errors;

/// <summary>The optimistic-concurrency check failed: the stream's last event number is not what the append expected. Nothing was written.</summary>
public sealed class WrongExpectedVersionException : Exception
{
    /// <summary>Creates the error.</summary>
    public WrongExpectedVersionException(string streamName, ExpectedVersion expected, long currentVersion)
        : base($"Append to stream '{streamName}' expected version {expected} but the stream's last event number is {Describe(currentVersion)}.")
    {
        StreamName = streamName;
        Expected = expected;
        CurrentVersion = currentVersion;
    }

    /// <summary>The stream appended to.</summary>
    public string StreamName { get; }

    /// <summary>What the append expected.</summary>
    public ExpectedVersion Expected { get; }

    /// <summary>The stream's last event number when the append was checked; -1 when the stream does not exist.</summary>
    public long CurrentVersion { get; }

    private static string Describe(long version) =>
        version < 0 ? "-1 (no stream)" : version.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
