namespace EventFilter.Hosting.Configuration;

/// <summary>
/// Finds out, before anything is created, whether the filter could be created in a directory: validation must
/// leave the disk as it found it. The directory may not exist yet (the filter creates it on open), so the nearest
/// existing ancestor is probed with a file that is deleted as it is closed.
/// </summary>
internal static class DataDirectoryProbe
{
    /// <summary>Null when files can be created at <paramref name="directory"/>; otherwise why not.</summary>
    public static string? FindProblem(string directory)
    {
        string? existing;
        try
        {
            existing = Path.GetFullPath(directory);
        }
        catch (Exception error) when (error is ArgumentException or NotSupportedException or PathTooLongException)
        {
            return $"not a valid path ({error.Message})";
        }

        while (existing is not null && !Directory.Exists(existing))
        {
            if (File.Exists(existing))
            {
                return $"'{existing}' is a file, not a directory";
            }

            existing = Path.GetDirectoryName(existing);
        }

        if (existing is null)
        {
            return "no part of the path exists";
        }

        string probe = Path.Combine(existing, $".eventfilter-probe-{Guid.NewGuid():N}");
        try
        {
            // DeleteOnClose unlinks the probe when the stream closes, so nothing is left behind, even on failure.
            using var stream = new FileStream(probe, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1, FileOptions.DeleteOnClose);
            return null;
        }
        catch (Exception error) when (error is IOException or UnauthorizedAccessException)
        {
            return $"files cannot be created in '{existing}' ({error.Message})";
        }
    }
}
