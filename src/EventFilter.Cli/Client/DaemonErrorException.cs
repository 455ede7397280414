namespace EventFilter.Cli.Client;

/// <summary>
/// The daemon answered, and said no: an error reply (<c>-ERR item exists</c>, <c>-ERR not found</c>, ...) or, for
/// `drop`, nothing to drop. The request changed nothing. Exit code 4 (<see cref="ExitCodes.DaemonRefused"/>).
/// </summary>
internal sealed class DaemonErrorException : Exception
{
    public DaemonErrorException()
    {
    }

    public DaemonErrorException(string message)
        : base(message)
    {
    }

    public DaemonErrorException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
