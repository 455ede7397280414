namespace EventLog.Server.Api;

/// <summary>One event in the body of <c>POST /streams/{stream}</c>: <c>{ "type": "...", "data": any, "metadata": any }</c>.</summary>
internal sealed record EventBody
{
    /// <summary>The event type, 1 to 255 UTF-8 bytes; required.</summary>
    public required string Type { get; init; }

    /// <summary>The event's body, any JSON value (null included); required.</summary>
    public required RawJson Data { get; init; }

    /// <summary>Any JSON value about the event; optional.</summary>
    public RawJson Metadata { get; init; }
}
