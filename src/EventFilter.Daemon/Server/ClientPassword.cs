using System.Security.Cryptography;
using System.Text;

namespace EventFilter.Daemon.Server;

/// <summary>
/// The password of --requirepass-file, kept only as its SHA-256: a candidate is hashed and the two digests compared with
/// <see cref="CryptographicOperations.FixedTimeEquals"/>, so neither the time taken nor the comparison reveals how much
/// of a guess was right, or the password's length. The password itself is never logged or shown (ToString says so).
/// </summary>
internal sealed class ClientPassword
{
    private readonly byte[] _digest;

    private ClientPassword(byte[] digest) => _digest = digest;

    /// <summary>
    /// Reads the password: the file's bytes without one trailing newline (LF or CRLF), as `echo secret &gt; file` writes.
    /// </summary>
    /// <exception cref="ArgumentException">The file cannot be read, or holds an empty password; the message names the file only.</exception>
    public static ClientPassword ReadFile(string path)
    {
        byte[] bytes;
        try
        {
            bytes = File.ReadAllBytes(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or NotSupportedException or ArgumentException)
        {
            throw new ArgumentException($"cannot read the password file '{path}': {e.Message}", e);
        }

        ReadOnlySpan<byte> password = bytes;
        if (password.EndsWith("\n"u8))
        {
            password = password[..^1];
            if (password.EndsWith("\r"u8))
            {
                password = password[..^1];
            }
        }

        if (password.IsEmpty)
        {
            throw new ArgumentException($"the password file '{path}' is empty");
        }

        if (password.ContainsAny("\r\n"u8))
        {
            throw new ArgumentException($"the password file '{path}' holds more than one line");
        }

        ClientPassword result = new(SHA256.HashData(password));
        CryptographicOperations.ZeroMemory(bytes);
        return result;
    }

    /// <summary>For tests: a password given as text.</summary>
    public static ClientPassword Of(string password) => new(SHA256.HashData(Encoding.UTF8.GetBytes(password)));

    /// <summary>True when <paramref name="candidate"/> is the password; its time depends on the candidate's length only.</summary>
    public bool Matches(ReadOnlySpan<byte> candidate)
    {
        Span<byte> digest = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(candidate, digest);
        return CryptographicOperations.FixedTimeEquals(digest, _digest);
    }

    /// <summary>Never the password: a record that prints itself (DaemonOptions) shows this.</summary>
    public override string ToString() => "(password set)";
}
