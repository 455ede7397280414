using System.Security.Cryptography;
using EventFilter.Format;

namespace EventFilter.Cli.Tests;

/// <summary>Builds the filter files the tests run the tool on: healthy, corrupted, garbage, truncated.</summary>
public static class FilterFiles
{
    public static string Added(int i) => $"order-{i:D10}-2f1c9a7e-added-stream";

    public static string Absent(int i) => $"order-{i:D10}-2f1c9a7e-never-written";

    /// <summary>A flushed filter holding <paramref name="names"/> names, with a current checkpoint at <paramref name="position"/>.</summary>
    public static string Healthy(string path, int names, long sizeBytes, long position = 4242)
    {
        using (FilterFile filter = FilterFile.Create(path, new FilterFileOptions { SizeBytes = sizeBytes }))
        {
            string[] batch = new string[names];
            for (int i = 0; i < names; i++)
            {
                batch[i] = Added(i);
            }

            filter.AddBatch(batch);
            filter.FoldJournal(); // one plain file, no journal beside it: tests copy the file and its checkpoint
            CheckpointFile.Write(CheckpointFile.PathFor(path), new Checkpoint(position, filter.Header.FileId));
        }

        return path;
    }

    /// <summary>Flips one byte in <paramref name="fraction"/> of the data lines, chosen at random; returns the sorted line numbers.</summary>
    public static long[] Corrupt(string path, double fraction, int seed = 7)
    {
        long lines = new FileInfo(path).Length / FilterGeometry.LineSize - 1;
        var random = new Random(seed);
        long[] chosen = Enumerable.Range(0, (int)lines).OrderBy(_ => random.Next()).Take((int)Math.Round(lines * fraction)).Select(i => (long)i).Order().ToArray();
        using var stream = new FileStream(path, FileMode.Open, FileAccess.ReadWrite);
        foreach (long line in chosen)
        {
            // Any one-byte change is caught: CRC-32C detects every error confined to 32 bits.
            long offset = (line + 1) * FilterGeometry.LineSize + random.Next(FilterGeometry.LineSize);
            stream.Position = offset;
            int original = stream.ReadByte();
            stream.Position = offset;
            stream.WriteByte((byte)(original ^ (1 + random.Next(255))));
        }

        return chosen;
    }

    /// <summary>A copy of <paramref name="source"/> and its checkpoint under a new name, for tests that change files.</summary>
    public static string CopyTo(string source, string destination)
    {
        File.Copy(source, destination, overwrite: true);
        string checkpoint = CheckpointFile.PathFor(source);
        if (File.Exists(checkpoint))
        {
            File.Copy(checkpoint, CheckpointFile.PathFor(destination), overwrite: true);
        }

        return destination;
    }

    /// <summary>
    /// Adds <paramref name="names"/> more names (from <paramref name="from"/>) to a healthy file and flushes them into a
    /// journal, as a server stopped by a crash between folds leaves it; returns the journal's path.
    /// </summary>
    public static string WithPendingJournal(string path, int from, int names)
    {
        using FilterFile filter = FilterFile.OpenExisting(path, writable: true);
        for (int i = from; i < from + names; i++)
        {
            filter.Add(Added(i));
        }

        filter.Flush();
        return Directory.GetFiles(Path.GetDirectoryName(Path.GetFullPath(path))!, Path.GetFileName(path) + ".journal.*").Single();
    }

    public static string Garbage(string path, int length = 64 * 1024)
    {
        byte[] bytes = new byte[length];
        new Random(3).NextBytes(bytes);
        File.WriteAllBytes(path, bytes);
        return path;
    }

    /// <summary>SHA-256 of the filter and its checkpoint together: what "changes nothing" is checked against.</summary>
    public static string Fingerprint(string path)
    {
        string checkpoint = CheckpointFile.PathFor(path);
        byte[] filter = SHA256.HashData(File.ReadAllBytes(path));
        byte[] beside = File.Exists(checkpoint) ? SHA256.HashData(File.ReadAllBytes(checkpoint)) : [];
        return Convert.ToHexString(filter) + "/" + Convert.ToHexString(beside) + "/" + File.GetLastWriteTimeUtc(path).Ticks;
    }
}
