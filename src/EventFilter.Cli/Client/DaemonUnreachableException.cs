namespace EventFilter.Cli.Client;

/// <summary>
/// The daemon could not be reached or did not answer usably: no socket, nobody listening, no permission, a
/// timeout, a connection closed mid-reply, or bytes that are not RESP. Exit code 3 (<see cref="ExitCodes.DaemonUnreachable"/>).
/// </summary>
internal sealed class DaemonUnreachableException : Exception
{
    public DaemonUnreachableException()
    {
    }

    public DaemonUnreachableException(string message)
        : base(message)
    {
    }

    public DaemonUnreachableException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
