using EventLog.Errors;

namespace EventLog.Server.Api;

/// <summary>
/// Every error response: <c>application/problem+json</c> (RFC 9457) with a title naming the kind of error and a
/// detail saying what was wrong with this request. Listed in docs/server.md, "Errors".
/// </summary>
internal static class Problems
{
    public static IResult BadRequest(string title, string detail) =>
        TypedResults.Problem(detail, statusCode: StatusCodes.Status400BadRequest, title: title);

    public static IResult InvalidPath(string detail) => BadRequest("Invalid path", detail);

    public static IResult InvalidStreamName(string detail) => BadRequest("Invalid stream name", detail);

    public static IResult InvalidBody(string detail) => BadRequest("Invalid request body", detail);

    public static IResult InvalidQuery(string detail) => BadRequest("Invalid query parameter", detail);

    public static IResult BodyTooLarge() => TypedResults.Problem(
        $"The request body is larger than {ServerSettings.MaxRequestBodyBytes:N0} bytes, the server's limit.",
        statusCode: StatusCodes.Status413PayloadTooLarge,
        title: "Request body too large");

    /// <summary>409: the expected version did not match; <c>currentVersion</c> is the stream's last event number (-1: none).</summary>
    public static IResult WrongExpectedVersion(WrongExpectedVersionException error) => TypedResults.Problem(
        error.Message,
        statusCode: StatusCodes.Status409Conflict,
        title: "Wrong expected version",
        extensions: new Dictionary<string, object?>
        {
            ["stream"] = error.StreamName,
            ["expectedVersion"] = error.Expected.ToString(),
            ["currentVersion"] = error.CurrentVersion,
        });

    public static IResult StreamNotFound(string stream) => TypedResults.Problem(
        "The stream has never been written.",
        statusCode: StatusCodes.Status404NotFound,
        title: "Stream not found",
        extensions: new Dictionary<string, object?> { ["stream"] = stream });

    /// <summary>409: the filter cannot start an online rebuild now (disabled, not ready, stopping, resizing or rebuilding).</summary>
    public static IResult RebuildRefused(string refusal) =>
        TypedResults.Problem($"No rebuild was started: {refusal}.", statusCode: StatusCodes.Status409Conflict, title: "Rebuild not started");

    /// <summary>507: the disk has no room for the rebuild's fresh file; nothing was started.</summary>
    public static IResult RebuildNoSpace(string reason) =>
        TypedResults.Problem($"No rebuild was started: {reason}.", statusCode: StatusCodes.Status507InsufficientStorage, title: "Rebuild not started");

    /// <summary>503: the engine takes no appends (starting, shutting down, or stopped by a write failure); this one was not written.</summary>
    public static IResult Unavailable(string detail) =>
        TypedResults.Problem(detail, statusCode: StatusCodes.Status503ServiceUnavailable, title: "Not accepting appends");

    /// <summary>
    /// 500: the write failed and so did cutting the log back, so the append may or may not be in the log after a
    /// restart. Not a refusal: the client reads the stream after the restart to find out.
    /// </summary>
    public static IResult OutcomeUnknown(string stream, string detail) => TypedResults.Problem(
        detail,
        statusCode: StatusCodes.Status500InternalServerError,
        title: "Append outcome unknown",
        extensions: new Dictionary<string, object?> { ["stream"] = stream });
}
