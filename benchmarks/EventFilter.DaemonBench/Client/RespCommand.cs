using System.Globalization;
using System.Text;

namespace EventFilter.DaemonBench.Client;

/// <summary>Encodes commands as RESP arrays of bulk strings ahead of the timed loops, which then only send bytes.</summary>
internal static class RespCommand
{
    public static byte[] Encode(params IReadOnlyList<string> arguments)
    {
        var text = new StringBuilder().Append('*').Append(arguments.Count).Append("\r\n");
        foreach (string argument in arguments)
        {
            text.Append('$').Append(Encoding.UTF8.GetByteCount(argument)).Append("\r\n").Append(argument).Append("\r\n");
        }

        return Encoding.UTF8.GetBytes(text.ToString());
    }

    /// <summary>A fixed-width item name, unique per prefix and index, so every add of a run is new to both servers.</summary>
    public static string Item(string prefix, int index) => prefix + ":" + index.ToString("D8", CultureInfo.InvariantCulture);
}
