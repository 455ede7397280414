namespace EventFilter.PostgreSql;

/// <summary>
/// The events table or its database cannot serve as the filter's log, for a cause the operator can fix: the
/// <see cref="Exception.Message"/> is one line naming it and what to change, and <see cref="ExitCode"/> the process
/// exit code for it. Thrown by the host's start, before the filter opens; a host's Program.cs prints the one and
/// returns the other, as for the hosted filter's own start failures.
/// </summary>
public sealed class PostgreSqlStreamLogStartException : Exception
{
    /// <summary>6: the table is missing, or a column, or its sequence is cached, or the role may not read it.</summary>
    internal const int TableExitCode = 6;

    /// <summary>7: the database could not be reached, or refused the connection.</summary>
    internal const int UnreachableExitCode = 7;

    internal PostgreSqlStreamLogStartException(int exitCode, string message, Exception? inner)
        : base(message, inner)
    {
        ExitCode = exitCode;
    }

    /// <summary>The process exit code for this cause: 6 the table does not fit, 7 the database is unreachable.</summary>
    public int ExitCode { get; }
}
