using System.Globalization;
using System.Text;

namespace EventLog.Server.Tests;

/// <summary>One request that must be refused: over HttpClient (a relative URI) or, when it has a raw target, over a socket.</summary>
public sealed record MalformedRequest(string Kind, string Uri, byte[] Body, byte[]? RawTarget = null, bool ExpectContinue = false)
{
    public override string ToString() => $"{Kind}: {RawTarget?.Length.ToString(CultureInfo.InvariantCulture) ?? Uri[..Math.Min(Uri.Length, 120)]} ({Body.Length} bytes)";
}

/// <summary>
/// Random requests that are wrong in one way each, built so that none can be valid by chance: a proper prefix of a
/// JSON array is never JSON; a byte of 0x80 or above never belongs in this generator's ASCII bodies; and so on.
/// The existing stream <see cref="ExistingStream"/> must hold exactly <see cref="ExistingLastEventNumber"/> + 1 events.
/// </summary>
public sealed class MalformedRequests(Random random)
{
    public const string ExistingStream = "existing";
    public const long ExistingLastEventNumber = 2;

    private static readonly byte[] NeverUtf8 = [0xFF, 0xFE, 0xC0, 0xC1, 0xF5, 0x80, 0xBF];

    public MalformedRequest Next() => random.Next(100) switch
    {
        < 15 => Truncated(),
        < 25 => InvalidByte(),
        < 40 => BadEvent(),
        < 50 => Deep(),
        < 52 => Huge(),
        < 67 => BadName(),
        < 80 => BadVersion(),
        _ => Conflict(),
    };

    private string NewStream() => "sweep-" + random.Next(1_000_000).ToString(CultureInfo.InvariantCulture);

    private string ValidBody()
    {
        int count = random.Next(1, 5);
        return "[" + string.Join(",", Enumerable.Range(0, count).Select(i => EventsApi.OneEvent("T" + i, random.Next().ToString(CultureInfo.InvariantCulture))[1..^1])) + "]";
    }

    private MalformedRequest Truncated()
    {
        string body = ValidBody();
        return new("truncated JSON", "streams/" + NewStream(), Encoding.ASCII.GetBytes(body[..random.Next(body.Length - 1)]));
    }

    private MalformedRequest InvalidByte()
    {
        List<byte> body = [.. Encoding.ASCII.GetBytes(ValidBody())];
        body.Insert(random.Next(body.Count + 1), NeverUtf8[random.Next(NeverUtf8.Length)]);
        return new("invalid UTF-8 byte in the body", "streams/" + NewStream(), [.. body]);
    }

    private MalformedRequest BadEvent()
    {
        string[] events =
        [
            "{\"data\":1}", "{\"type\":null,\"data\":1}", "{\"type\":\"\",\"data\":1}", "{\"type\":1,\"data\":1}",
            "{\"type\":[],\"data\":1}", "{\"type\":\"E\"}", "{\"type\":\"E\",\"data\":1,\"extra\":0}", "null", "1", "\"E\"", "[]",
            "{\"type\":\"E\",\"data\":1,\"data\":2}", "{\"type\":\"" + new string('t', random.Next(256, 600)) + "\",\"data\":1}",
            "{\"type\":\"\\udc00\",\"data\":1}",
        ];
        string bad = events[random.Next(events.Length)];
        string[] bodies = ["[" + bad + "]", "[" + ValidBody()[1..^1] + "," + bad + "]", bad, "{}", "[]", "null", "\"text\"", "1"];
        return new("bad event", "streams/" + NewStream(), Encoding.ASCII.GetBytes(bodies[random.Next(bodies.Length)]));
    }

    private MalformedRequest Deep()
    {
        // 63 levels of data under the array and the event object make 65, one past the limit.
        int depth = random.Next(63, 5000);
        bool objects = random.Next(2) == 0;
        string open = objects ? "{\"a\":" : "[";
        string close = objects ? "}" : "]";
        string data = string.Concat(Enumerable.Repeat(open, depth)) + "0" + string.Concat(Enumerable.Repeat(close, depth));
        return new("nested " + depth.ToString(CultureInfo.InvariantCulture) + " deep", "streams/" + NewStream(), Encoding.ASCII.GetBytes(EventsApi.OneEvent("E", data)));
    }

    private MalformedRequest Huge()
    {
        int size = (1024 * 1024) + random.Next(1, 512 * 1024);
        return new("body over 1 MiB", "streams/" + NewStream(), Encoding.ASCII.GetBytes(EventsApi.OneEvent("E", "\"" + new string('x', size) + "\"")), ExpectContinue: true);
    }

    private MalformedRequest BadName()
    {
        byte[] body = Encoding.ASCII.GetBytes(ValidBody());
        switch (random.Next(7))
        {
            case 0:
                return new("empty name", random.Next(2) == 0 ? "streams/" : "streams", body);
            case 1:
                string longName = random.Next(2) == 0 ? new string('a', random.Next(1001, 4000)) : new string('é', random.Next(501, 1500));
                return new("name over 1,000 bytes", "streams/" + Uri.EscapeDataString(longName), body);
            case 2:
                // A lone continuation byte, an overlong lead, a cut 2-, 3- or 4-byte sequence, an encoded surrogate.
                string[] invalid = ["%80", "%BF", "%C0%AF", "%C3", "%E2%82", "%F0%9F%98", "%ED%A0%80", "%F8%88%80%80%80", "%FF"];
                return new("invalid UTF-8 in the name", "streams/x" + invalid[random.Next(invalid.Length)] + "y", body);
            case 3:
                string[] malformed = ["%", "%4", "%G0", "%%", "a%zz"];
                return new("malformed percent-encoding", "", body, Encoding.ASCII.GetBytes("/streams/" + malformed[random.Next(malformed.Length)]));
            case 4:
                return new("raw byte in the target", "", body, [.. "/streams/x"u8, NeverUtf8[random.Next(NeverUtf8.Length)]]);
            case 5:
                // A control character, raw or percent-encoded (0x00 raw or encoded is Kestrel's own 400).
                byte control = (byte)(random.Next(2) == 0 ? 0x7F : random.Next(0, 0x20));
                return random.Next(2) == 0
                    ? new("encoded control character in the name", $"streams/x%{control:X2}y", body)
                    : new("raw control character in the target", "", body, [.. "/streams/x"u8, control, .. "y"u8]);
            default:
                string[] dots = ["/streams/a/../b", "/streams/./b", "/x/../streams/b", "/streams/a/%2e%2e/b"];
                return new("dot segments", "", body, Encoding.ASCII.GetBytes(dots[random.Next(dots.Length)]));
        }
    }

    private MalformedRequest BadVersion()
    {
        string[] shapes = ["-" + random.Next(1, 100), "abc", "1.5", "", "1e3", "0x10", "%201", "%2B1", "99999999999999999999", "No Stream", "stream-exists", "latest", "%00", "1%00", "0%00%00", "%001", "no-stream%00"];
        string version = shapes[random.Next(shapes.Length)];
        return new("bad expectedVersion '" + version + "'", "streams/" + NewStream() + "?expectedVersion=" + version, Encoding.ASCII.GetBytes(ValidBody()));
    }

    private MalformedRequest Conflict()
    {
        byte[] body = Encoding.ASCII.GetBytes(ValidBody());
        return random.Next(4) switch
        {
            0 => new("conflict: no-stream on an existing stream", $"streams/{ExistingStream}?expectedVersion=no-stream", body),
            1 => new("conflict: wrong exact version", $"streams/{ExistingStream}?expectedVersion={WrongVersion()}", body),
            2 => new("conflict: exists on a new stream", $"streams/{NewStream()}?expectedVersion=exists", body),
            _ => new("conflict: exact version on a new stream", $"streams/{NewStream()}?expectedVersion={random.Next(0, 1000)}", body),
        };
    }

    private long WrongVersion()
    {
        long version = random.Next(0, 10);
        return version == ExistingLastEventNumber ? version + 1 : version;
    }
}
