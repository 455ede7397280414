namespace EventFilter.Cli.Reports.Client;

/// <summary>What a client command found out, written as text or (source-generated) JSON.</summary>
internal interface IClientReport
{
    /// <summary>Why the daemon stopped part-way (a full filter in madd); null when it did all that was asked.</summary>
    string? Error => null;

    void WriteText(TextWriter output);
}
