using EventFilter.Format;

namespace EventFilter.Errors;

/// <summary>The header line is not a valid filter header: wrong magic, version or checksum, or inconsistent fields.</summary>
internal sealed class InvalidFilterHeaderException : FilterFileException
{
    /// <summary>Creates the error.</summary>
    internal InvalidFilterHeaderException(string path, HeaderProblem problem, string reason)
        : base(path, $"invalid header: {reason}")
    {
        Problem = problem;
    }

    /// <summary>What exactly is wrong.</summary>
    public HeaderProblem Problem { get; }
}
