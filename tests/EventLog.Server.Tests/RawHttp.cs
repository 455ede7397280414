using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace EventLog.Server.Tests;

/// <summary>
/// HTTP/1.1 written byte by byte on a socket, for what HttpClient will not send: raw non-ASCII bytes and dot segments
/// in the path, malformed percent-encoding, absolute-form targets.
/// </summary>
public static class RawHttp
{
    /// <summary>Sends one request with <c>Connection: close</c> and returns the status code and the whole response.</summary>
    public static async Task<(int Status, string Response)> SendAsync(Uri server, string method, byte[] target, byte[]? body = null)
    {
        body ??= [];
        var request = new MemoryStream();
        request.Write(Encoding.ASCII.GetBytes(method + " "));
        request.Write(target);
        request.Write(Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture,
            $" HTTP/1.1\r\nHost: {server.Authority}\r\nContent-Type: application/json\r\nContent-Length: {body.Length}\r\nConnection: close\r\n\r\n")));
        request.Write(body);

        using var timeout = new CancellationTokenSource(Poll.Bound);
        using var client = new TcpClient();
        await client.ConnectAsync(server.Host, server.Port, timeout.Token);
        NetworkStream stream = client.GetStream();
        await stream.WriteAsync(request.ToArray(), timeout.Token);
        var response = new MemoryStream();
        await stream.CopyToAsync(response, timeout.Token);
        string text = Encoding.UTF8.GetString(response.ToArray());
        Assert.StartsWith("HTTP/1.1 ", text);
        return (int.Parse(text.AsSpan(9, 3), CultureInfo.InvariantCulture), text);
    }

    /// <summary>A request target from text, with <c>\xNN</c> standing for a raw byte.</summary>
    public static byte[] Target(string text)
    {
        var bytes = new List<byte>();
        for (int i = 0; i < text.Length; i++)
        {
            if (text[i] == '\\' && i + 3 < text.Length && text[i + 1] == 'x')
            {
                bytes.Add(byte.Parse(text.AsSpan(i + 2, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture));
                i += 3;
            }
            else
            {
                bytes.Add((byte)text[i]);
            }
        }

        return [.. bytes];
    }
}
