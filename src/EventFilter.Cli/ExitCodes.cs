using EventFilter.Cli.Client;

namespace EventFilter.Cli;

/// <summary>The tool's exit codes; docs/operations.md, section "Exit codes", is the contract operators script against.</summary>
internal static class ExitCodes
{
    /// <summary>Done: the file is clean (verify), repaired (repair), or the command simply ran.</summary>
    public const int Success = 0;

    /// <summary>
    /// Mismatched lines, but no more than the threshold: repair offline or let the server repair on open.
    /// check also returns it when such lines forced every answer to "maybe".
    /// </summary>
    public const int Corrupted = 1;

    /// <summary>A rebuild is needed, or the input was unusable: missing file, not a filter, truncated, garbage checkpoint, bad arguments.</summary>
    public const int Failure = 2;

    /// <summary>Client mode (-s): eventfilterd could not be reached or did not answer: no socket, nobody listening, no permission, a timeout.</summary>
    public const int DaemonUnreachable = 3;

    /// <summary>Client mode (-s): eventfilterd answered with an error (the filter exists already, is not there, is full); it changed nothing.</summary>
    public const int DaemonRefused = 4;

    /// <summary>The exit code of a failure that ended a command.</summary>
    public static int For(Exception failure) => failure switch
    {
        DaemonUnreachableException => DaemonUnreachable,
        DaemonErrorException => DaemonRefused,
        _ => Failure,
    };
}
