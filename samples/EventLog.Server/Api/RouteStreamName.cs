using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Text;
using EventLog.Streams;
using Microsoft.AspNetCore.Http.Features;

namespace EventLog.Server.Api;

/// <summary>
/// The <c>{stream}</c> segment of a request path, decoded from the raw request target so that the name is exactly the
/// UTF-8 the client percent-encoded. <c>Request.Path</c> would not do: Kestrel leaves <c>%2F</c> and invalid UTF-8
/// percent-encoded there, so <c>a%2Fb</c> and <c>%FF</c> would silently name the streams "a%2Fb" and "%FF".
/// </summary>
internal static class RouteStreamName
{
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>
    /// Reads the name at path segment <paramref name="index"/> (<c>/streams/{stream}</c>: 2, counting the empty one before
    /// the first slash). On failure <paramref name="problem"/> is the 400 to return.
    /// </summary>
    public static bool TryRead(HttpContext context, int index, [NotNullWhen(true)] out string? stream, [NotNullWhen(false)] out IResult? problem)
    {
        stream = null;
        // DotSegments has refused paths with '.' or '..' segments, which Kestrel resolves: the raw segments line up with the route.
        string[] segments = RawPath(context).Split('/');
        byte[]? utf8 = index < segments.Length ? PercentDecode(segments[index]) : [];
        problem = utf8 switch
        {
            null => Problems.InvalidStreamName("The stream name's percent-encoding is malformed: '%' must be followed by two hex digits."),
            { Length: 0 } => Problems.InvalidStreamName("The stream name is empty; it is 1 to 1,000 UTF-8 bytes."),
            { Length: > EventLimits.MaxStreamNameBytes } => Problems.InvalidStreamName(
                $"The stream name is {utf8.Length:N0} UTF-8 bytes; the limit is {EventLimits.MaxStreamNameBytes:N0}."),
            _ when Array.FindIndex(utf8, IsControl) is >= 0 and int at => Problems.InvalidStreamName(
                $"The stream name holds the control character 0x{utf8[at]:X2} at byte {at}; control characters (0x00-0x1F, 0x7F), raw or percent-encoded, are not allowed."),
            _ => null,
        };
        if (problem is not null)
        {
            return false;
        }

        try
        {
            stream = StrictUtf8.GetString(utf8!);
            return true;
        }
        catch (DecoderFallbackException)
        {
            problem = Problems.InvalidStreamName("The stream name is not valid UTF-8 once percent-decoded.");
            return false;
        }
    }

    /// <summary>The path part of the request target as the client sent it: origin form "/streams/x?y" or absolute form "http://h/streams/x".</summary>
    public static string RawPath(HttpContext context)
    {
        string raw = context.Features.Get<IHttpRequestFeature>()?.RawTarget ?? context.Request.Path.ToString();
        int query = raw.IndexOf('?', StringComparison.Ordinal);
        string path = query >= 0 ? raw[..query] : raw;
        int scheme = path.IndexOf("://", StringComparison.Ordinal);
        if (!path.StartsWith('/') && scheme >= 0)
        {
            int slash = path.IndexOf('/', scheme + 3);
            path = slash >= 0 ? path[slash..] : "/";
        }

        return path;
    }

    // C0 controls and DEL: a name holding CR, LF or TAB would split or forge lines in logs and tools that print it.
    private static bool IsControl(byte b) => b is < 0x20 or 0x7F;

    // Null when a '%' is not followed by two hex digits. Characters outside ASCII (which Kestrel does not normally let
    // through) are taken as the text they are, UTF-8 encoded.
    private static byte[]? PercentDecode(string segment)
    {
        var bytes = new List<byte>(segment.Length);
        for (int i = 0; i < segment.Length; i++)
        {
            char c = segment[i];
            if (c == '%')
            {
                if (i + 2 >= segment.Length
                    || !byte.TryParse(segment.AsSpan(i + 1, 2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out byte decoded))
                {
                    return null;
                }

                bytes.Add(decoded);
                i += 2;
            }
            else if (c < 0x80)
            {
                bytes.Add((byte)c);
            }
            else
            {
                // A lone surrogate becomes U+FFFD's bytes here, which still decodes: but Kestrel builds RawTarget from bytes, so it has none.
                int length = char.IsHighSurrogate(c) && i + 1 < segment.Length ? 2 : 1;
                bytes.AddRange(Encoding.UTF8.GetBytes(segment.Substring(i, length)));
                i += length - 1;
            }
        }

        return [.. bytes];
    }
}
