using System.Text.Json;
using System.Text.Unicode;
using EventLog.Streams;

namespace EventLog.Server.Api;

/// <summary>
/// Reads the body of <c>POST /streams/{stream}</c>, a JSON array of events, into the engine's <see cref="EventData"/>.
/// Every way it can be wrong becomes a problem response before anything reaches the engine (docs/server.md, "Errors").
/// </summary>
internal static class AppendBody
{
    /// <summary>The events, or the problem to answer with instead.</summary>
    public readonly record struct Result(IReadOnlyList<EventData>? Events, IResult? Problem);

    public static async Task<Result> ReadAsync(HttpRequest request, CancellationToken cancellationToken)
    {
        byte[] body;
        try
        {
            // The whole body first (Kestrel stops it at MaxRequestBodyBytes), so that too large, cut short and
            // malformed are told apart.
            using var buffer = new MemoryStream();
            await request.Body.CopyToAsync(buffer, cancellationToken).ConfigureAwait(false);
            body = buffer.ToArray();
        }
        catch (BadHttpRequestException error)
        {
            return new Result(null, error.StatusCode == StatusCodes.Status413PayloadTooLarge
                ? Problems.BodyTooLarge()
                : Problems.InvalidBody($"The request body could not be read: {error.Message}"));
        }
        catch (Exception gone) when (gone is OperationCanceledException or IOException)
        {
            // The connection closed before the whole body came: the client went away, or the server is shutting down
            // and the host's shutdown timeout cut the request (docs/server.md, "Start and stop"). Nobody is left to
            // answer, so this is no server error: the request's log line says 499, without a stack trace. (Kestrel
            // cancels RequestAborted only after the read fails, so ASP.NET's own 499 for it comes only sometimes.)
            return new Result(null, TypedResults.StatusCode(StatusCodes.Status499ClientClosedRequest));
        }

        return Parse(body);
    }

    /// <summary>Parses a whole body.</summary>
    public static Result Parse(ReadOnlySpan<byte> body)
    {
        // The JSON reader checks UTF-8 only where it decodes text; data is stored raw, so check every byte here.
        if (!Utf8.IsValid(body))
        {
            return new Result(null, Problems.InvalidBody("The body is not valid UTF-8."));
        }

        EventBody[]? events;
        try
        {
            events = JsonSerializer.Deserialize(body, ServerJsonContext.Default.EventBodyArray);
        }
        catch (JsonException error)
        {
            return new Result(null, Problems.InvalidBody($"The body is not a valid array of events: {WithoutTypeNames(error.Message)}"));
        }

        if (events is null)
        {
            return new Result(null, Problems.InvalidBody("The body is null; send a JSON array of events: [{ \"type\": \"...\", \"data\": {...} }]."));
        }

        var converted = new EventData[events.Length];
        for (int i = 0; i < events.Length; i++)
        {
            EventBody e = events[i];
            if (e is null)
            {
                return new Result(null, Problems.InvalidBody($"Event {i} is null."));
            }

            converted[i] = new EventData(e.Type, e.Data.Utf8, e.Metadata.Utf8);
        }

        return new Result(converted, null);
    }

    // The serializer's messages name .NET types; a client knows them as "event" and "array of events".
    private static string WithoutTypeNames(string message)
    {
        string type = typeof(EventBody).FullName!;
        return message
            .Replace($"'{type}[]'", "array of events", StringComparison.Ordinal)
            .Replace($"{type}[]", "an array of events", StringComparison.Ordinal)
            .Replace($"'{type}'", "event", StringComparison.Ordinal)
            .Replace(type, "an event", StringComparison.Ordinal);
    }
}
