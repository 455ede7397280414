namespace EventLog.Server.Api;

/// <summary>201 from <c>POST /streams/{stream}</c>: the append is durable.</summary>
/// <param name="FirstEventNumber">The number of the first event written.</param>
/// <param name="LastEventNumber">The stream's last event number now: the expected version for the next append.</param>
/// <param name="Position">The log position (global byte offset) of the first event written.</param>
internal sealed record AppendResponse(long FirstEventNumber, long LastEventNumber, long Position);

/// <summary>200 from <c>GET /streams/{stream}</c>.</summary>
internal sealed record ReadResponse(
    string Stream,
    long FromEventNumber,
    long LastEventNumber,
    long NextEventNumber,
    bool IsEndOfStream,
    IReadOnlyList<EventResponse> Events);

/// <summary>One event read.</summary>
internal sealed record EventResponse(long EventNumber, string Type, RawJson Data, RawJson Metadata, DateTime Created, long Position);

/// <summary>200 from <c>GET /filter/streams/{stream}</c>: false is "definitely never written".</summary>
/// <param name="Answer"><see cref="Maybe"/> or <see cref="DefinitelyNot"/>: the values of the eventfilter.answer metric tag.</param>
internal sealed record StreamLookupResponse(string Stream, bool MightExist, string Answer, bool FilterReady)
{
    public const string Maybe = "maybe";
    public const string DefinitelyNot = "definitely-not";

    public static StreamLookupResponse For(string stream, bool mightExist, bool filterReady) =>
        new(stream, mightExist, mightExist ? Maybe : DefinitelyNot, filterReady);
}
