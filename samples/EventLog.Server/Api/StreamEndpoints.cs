using EventLog.Errors;
using EventLog.Server.Hosting;
using EventLog.Streams;

namespace EventLog.Server.Api;

/// <summary><c>POST /streams/{stream}</c> appends, <c>GET /streams/{stream}</c> reads forward. See docs/server.md.</summary>
internal static class StreamEndpoints
{
    // "/streams/{stream}" split on '/': "", "streams", the name.
    private const int StreamSegment = 2;

    public static IEndpointRouteBuilder MapStreamEndpoints(this IEndpointRouteBuilder routes)
    {
        // {stream?}: an empty name reaches the handler and gets a 400 that says so, rather than a bare 404 or 405.
        routes.MapPost("/streams/{stream?}", AppendAsync);
        routes.MapGet("/streams/{stream?}", Read);
        return routes;
    }

    private static async Task<IResult> AppendAsync(HttpContext context, EngineHandle handle)
    {
        if (!RouteStreamName.TryRead(context, StreamSegment, out string? stream, out IResult? problem)
            || !QueryParameters.TryReadExpectedVersion(context.Request.Query, out ExpectedVersion expected, out problem))
        {
            return problem;
        }

        AppendBody.Result body = await AppendBody.ReadAsync(context.Request, context.RequestAborted).ConfigureAwait(false);
        if (body.Events is not { } events)
        {
            return body.Problem!;
        }

        try
        {
            // Completes once the events are fsynced: a 201 is a promise that they survive a crash.
            AppendResult written = await handle.Engine.AppendAsync(stream, expected, events, context.RequestAborted).ConfigureAwait(false);
            return TypedResults.Created(
                $"/streams/{Uri.EscapeDataString(stream)}?{QueryParameters.FromName}={written.FirstEventNumber}",
                new AppendResponse(written.FirstEventNumber, written.LastEventNumber, written.LogPosition));
        }
        catch (WrongExpectedVersionException error)
        {
            return Problems.WrongExpectedVersion(error);
        }
        catch (InvalidStreamNameException error)
        {
            return Problems.InvalidStreamName($"Invalid stream name: {error.Reason}.");
        }
        catch (InvalidEventException error)
        {
            // Reason, not Message: ArgumentException's message ends in "(Parameter 'events')", which means nothing to a client.
            return Problems.InvalidBody(error.Index >= 0 ? $"Invalid event at index {error.Index}: {error.Reason}." : $"Invalid append: {error.Reason}.");
        }
        catch (EngineStoppedException error)
        {
            return Problems.Unavailable(error.Message);
        }
        catch (AppendOutcomeUnknownException error)
        {
            return Problems.OutcomeUnknown(stream, error.Message);
        }
    }

    private static IResult Read(HttpContext context, EngineHandle handle)
    {
        if (!RouteStreamName.TryRead(context, StreamSegment, out string? stream, out IResult? problem)
            || !QueryParameters.TryReadNumber(context.Request.Query, QueryParameters.FromName, 0, long.MaxValue, 0, out long from, out problem)
            || !QueryParameters.TryReadNumber(context.Request.Query, QueryParameters.CountName, 1, EventLimits.MaxReadCount, ServerSettings.DefaultReadCount, out long count, out problem))
        {
            return problem;
        }

        StreamSlice slice;
        try
        {
            slice = handle.Engine.ReadStreamForward(stream, from, (int)count);
        }
        catch (InvalidStreamNameException error)
        {
            return Problems.InvalidStreamName($"Invalid stream name: {error.Reason}.");
        }

        if (!slice.StreamExists)
        {
            return Problems.StreamNotFound(stream);
        }

        EventResponse[] events = [.. slice.Events.Select(e => new EventResponse(
            e.EventNumber, e.EventType, new RawJson(e.Data), new RawJson(e.Metadata), e.Created, e.LogPosition))];
        return TypedResults.Ok(new ReadResponse(slice.StreamName, slice.FromEventNumber, slice.LastEventNumber, slice.NextEventNumber, slice.IsEndOfStream, events));
    }
}
