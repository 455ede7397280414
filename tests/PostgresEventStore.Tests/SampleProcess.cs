using System.Diagnostics;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace PostgresEventStore.Tests;

/// <summary>
/// The sample run as a process of its own (PostgresEventStore.dll, built beside the tests) over a database and a data
/// directory, on a port Kestrel picks: what an operator runs, several of over one table, and kills.
/// </summary>
internal sealed partial class SampleProcess : IDisposable
{
    private readonly Process _process;
    private readonly TaskCompletionSource<Uri> _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<string> _output = [];

    private SampleProcess(Process process) => _process = process;

    public HttpClient Http { get; } = new();

    public static async Task<SampleProcess> StartAsync(string connectionString, string dataDirectory)
    {
        var start = new ProcessStartInfo("dotnet") { WorkingDirectory = AppContext.BaseDirectory, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in (string[])[Path.Combine(AppContext.BaseDirectory, "PostgresEventStore.dll"), "--Urls", "http://127.0.0.1:0",
            "--StreamExistenceFilter:DataDirectory", dataDirectory, "--StreamExistenceFilter:StreamExistenceFilterSize", "1MB",
            "--StreamExistenceFilter:PostgreSql:ConnectionString", connectionString])
        {
            start.ArgumentList.Add(argument);
        }

        var sample = new SampleProcess(new Process { StartInfo = start });
        sample._process.OutputDataReceived += (_, line) => sample.Read(line.Data);
        sample._process.ErrorDataReceived += (_, line) => sample.Read(line.Data);
        sample._process.Start();
        sample._process.BeginOutputReadLine();
        sample._process.BeginErrorReadLine();
        sample.Http.BaseAddress = await sample._listening.Task.WaitAsync(Poll.Bound);
        await Poll.UntilAsync(async () => (await sample.Http.GetStringAsync("/health")) == "Healthy", () => $"the sample to be healthy:\n{sample.Output}");
        return sample;
    }

    public string Output
    {
        get
        {
            lock (_output)
            {
                return string.Join('\n', _output);
            }
        }
    }

    /// <summary>Appends one event to a new stream; false if the process did not answer (killed).</summary>
    public async Task<bool> TryAppendAsync(string stream)
    {
        try
        {
            using HttpResponseMessage response = await Http.PostAsJsonAsync($"/streams/{stream}", new[] { new { type = "Created", data = new { } } });
            return response.StatusCode == System.Net.HttpStatusCode.Created ? true : throw new InvalidOperationException($"{stream}: {response.StatusCode} {await response.Content.ReadAsStringAsync()}");
        }
        catch (HttpRequestException)
        {
            return false;
        }
    }

    public async Task<bool> MightExistAsync(string stream) => (await Http.GetFromJsonAsync<JsonElement>($"/streams/{stream}")).GetProperty("mightExist").GetBoolean();

    public async Task<long> ReadPositionAsync() => (await Http.GetFromJsonAsync<JsonElement>("/filter")).GetProperty("readPosition").GetInt64();

    /// <summary>kill -9: no stop, no final checkpoint.</summary>
    public void Kill()
    {
        _process.Kill();
        _process.WaitForExit();
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            Kill();
        }

        _process.Dispose();
        Http.Dispose();
    }

    private void Read(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.Add(line);
        }

        if (Listening().Match(line) is { Success: true } listening)
        {
            _listening.TrySetResult(new Uri(listening.Groups["url"].Value));
        }
    }

    [GeneratedRegex(@"Now listening on: (?<url>http://\S+)")]
    private static partial Regex Listening();
}
