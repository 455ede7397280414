using EventFilter.Cli.Client;

namespace EventFilter.Cli.Output;

/// <summary>Turns any failure into one line an operator can act on: the message, never the stack.</summary>
internal static class ErrorMessage
{
    public static string Describe(Exception failure)
    {
        string message = failure switch
        {
            // A scan runs on several threads; what failed in one of them is the story, not the wrapper.
            AggregateException { InnerExceptions.Count: 1 } wrapped => Describe(wrapped.InnerExceptions[0]),
            // The core's typed errors already name the file and say what is wrong with it.
            FilterFileException content => content.Message,
            // The client's failures are written for the operator already: what failed, and what to check.
            DaemonUnreachableException or DaemonErrorException => failure.Message,
            FileNotFoundException missing => $"no such file: '{missing.FileName ?? missing.Message}'.",
            DirectoryNotFoundException or UnauthorizedAccessException or IOException => failure.Message,
            ArgumentException argument => argument.Message,
            _ => $"unexpected {failure.GetType().Name}: {failure.Message}",
        };

        // One line, whatever the message carries: scripts read stderr line by line.
        return message.ReplaceLineEndings(" ").Trim();
    }
}
