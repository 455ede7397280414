namespace EventLog.Server.Api;

/// <summary>
/// Refuses, with a 400, every request whose path holds a <c>.</c> or <c>..</c> segment, raw or percent-encoded
/// (<c>%2E</c> is the same character as <c>.</c> to HTTP). Kestrel resolves such segments before routing, so the request
/// would reach an endpoint its target does not name: <c>GET /filter/streams/%2E%2E</c> would be served as
/// <c>GET /filter</c>, and <c>POST /filter/streams/../rebuild</c> would start a rebuild. So streams named <c>.</c> and
/// <c>..</c> cannot be addressed over HTTP.
/// </summary>
internal static class DotSegments
{
    public static Task RefuseAsync(HttpContext context, RequestDelegate next) =>
        RouteStreamName.RawPath(context).Split('/').Any(IsDotSegment)
            ? Problems.InvalidPath("The path holds a '.' or '..' segment (raw or percent-encoded as %2E), which would address another endpoint; streams named '.' or '..' cannot be used over HTTP.").ExecuteAsync(context)
            : next(context);

    private static bool IsDotSegment(string segment) =>
        segment.Replace("%2e", ".", StringComparison.OrdinalIgnoreCase) is "." or "..";
}
