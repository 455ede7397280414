namespace EventFilter.Testing;

/// <summary>
/// The 64 header bytes of a live filter file (docs/file-format.md), file id included: a rebuilt or resized file has new
/// ones. Read directly rather than through <c>FilterFile.OpenReadOnly</c>, which also replays the journal that the live
/// filter may be folding away meanwhile.
/// </summary>
public static class FilterHeaderBytes
{
    public static string Read(string filterPath)
    {
        using var file = new FileStream(filterPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        byte[] header = new byte[64];
        file.ReadExactly(header);
        return Convert.ToHexString(header);
    }
}
