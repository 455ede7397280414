namespace EventFilter.Hosting;

/// <summary>
/// The hosted filter cannot start, for a cause the host's operator can fix: its <see cref="Exception.Message"/> is one
/// line naming the cause and what to do, and <see cref="ExitCode"/> is the process exit code documented for it
/// (docs/operations.md, "Start-up failures"). A host's Program.cs prints the one and returns the other.
/// </summary>
public sealed class StreamExistenceFilterStartException : Exception
{
    private StreamExistenceFilterStartException(int exitCode, string message, Exception? inner)
        : base(message, inner)
    {
        ExitCode = exitCode;
    }

    /// <summary>3: another process has the filter's files open for writing.</summary>
    internal const int InUseExitCode = 3;

    /// <summary>4: this process may not write the filter's files.</summary>
    internal const int AccessDeniedExitCode = 4;

    /// <summary>5: the host is put together wrongly (no <see cref="IStreamNameLog"/>, an add before the filter opened).</summary>
    internal const int MisconfiguredExitCode = 5;

    /// <summary>The process exit code for this cause: 3 in use, 4 permission denied, 5 host misconfigured.</summary>
    public int ExitCode { get; }

    /// <summary>The open's failure as a known cause, or null when it is none of them (the caller rethrows it as it is).</summary>
    internal static StreamExistenceFilterStartException? FromOpenFailure(Exception error, string path, string directoryKey) => error switch
    {
        FilterFileInUseException => new(
            InUseExitCode,
            $"The stream-existence filter's data directory '{Path.GetDirectoryName(path)}' is in use: '{path}' is open for writing by another process (or another filter in this one). Stop that process (another server on this directory, or 'eventfilter repair'), or give this one a directory of its own ({directoryKey}).",
            error),
        UnauthorizedAccessException => new(
            AccessDeniedExitCode,
            $"The stream-existence filter may not write its files in '{Path.GetDirectoryName(path)}': {error.Message} Give the user this process runs as read and write access to that directory and every file in it (a file made by another user, such as root, keeps its owner), or set {directoryKey} to another directory.",
            error),
        _ => null,
    };

    /// <summary>Resolving the filter found no log to catch up from.</summary>
    internal static StreamExistenceFilterStartException NoStreamNameLog() => new(
        MisconfiguredExitCode,
        $"AddStreamExistenceFilter needs the host's log, and no {nameof(IStreamNameLog)} is registered: register yours before the host is built, e.g. services.AddSingleton<{nameof(IStreamNameLog)}>(...) (docs/hosting-guide.md, step 2).",
        null);

    /// <summary>An add came before the filter was open: the service that appends starts before the filter does.</summary>
    internal static StreamExistenceFilterStartException AddBeforeOpen(InvalidOperationException error) => new(
        MisconfiguredExitCode,
        $"{nameof(IStreamExistenceFilter)}.Add was called before the filter was open: a service that appends started before it. Call AddStreamExistenceFilter before registering the services that append, so that the filter opens before them and stops after them (docs/hosting-guide.md, step 4).",
        error);
}
