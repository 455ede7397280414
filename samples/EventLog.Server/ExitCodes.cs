using EventFilter.Hosting;
using EventLog.Errors;
using Microsoft.Extensions.Options;

namespace EventLog.Server;

/// <summary>
/// What the server prints and returns when it stops on an error: one line and an exit code per known cause, the
/// table of docs/operations.md, "Start-up failures". The hosted filter's causes come with their line and code.
/// </summary>
internal static class ExitCodes
{
    /// <summary>The exit code and the line (after "EventLog.Server: ") for the error that stopped the server.</summary>
    public static (int Code, string Line) For(Exception error) => error switch
    {
        OptionsValidationException => (2, $"configuration error: {error.Message}"),
        StreamExistenceFilterStartException filter => (filter.ExitCode, $"error: {filter.Message}"),
        DirectoryInUseException => (3, $"error: {error.Message} Stop the process that holds it, or give this server a data directory of its own (--data)."),
        UnauthorizedAccessException => (4, $"error: permission denied: {error.Message} Give the user the server runs as read and write access to its data directory and everything in it."),
        _ => (1, $"error: {error.Message}"),
    };

    /// <summary>True when <paramref name="error"/> has a code of its own, so its line says all an operator needs.</summary>
    public static bool IsKnownCause(Exception? error) => error is not null && For(error).Code != 1;
}
