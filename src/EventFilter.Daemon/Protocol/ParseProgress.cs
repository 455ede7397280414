namespace EventFilter.Daemon.Protocol;

/// <summary>
/// How far <see cref="RespParser"/> got into a command that has not arrived whole: its argument count and where its
/// next argument starts, relative to the command's first byte. The next read resumes there, with the arguments parsed
/// so far kept, instead of parsing the command again from its start: a command of many arguments arriving in many small
/// reads cost time quadratic in its size before. One per connection.
/// </summary>
internal sealed class ParseProgress
{
    /// <summary>True while a command's header has been read but not all its arguments.</summary>
    public bool Started { get; private set; }

    /// <summary>The command's argument count, once <see cref="Started"/>.</summary>
    public long Count { get; private set; }

    /// <summary>Where the next argument starts, relative to the command's first byte.</summary>
    public int Position { get; private set; }

    public void Pause(long count, int position) => (Started, Count, Position) = (true, count, position);

    public void Clear() => Started = false;
}
