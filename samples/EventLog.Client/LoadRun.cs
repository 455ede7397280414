using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;

namespace EventLog.Client;

/// <summary>
/// One run: <see cref="LoadSettings.Concurrency"/> workers take stream numbers from a shared counter and append one
/// event to each with <c>expectedVersion=no-stream</c>, while a progress line is printed every second.
/// </summary>
internal static class LoadRun
{
    private static readonly MediaTypeHeaderValue Json = new("application/json");

    public static async Task<LoadResult> RunAsync(LoadSettings settings, TextWriter output, TimeProvider time, CancellationToken cancellationToken)
    {
        using var handler = new SocketsHttpHandler { MaxConnectionsPerServer = settings.Concurrency };
        using var http = new HttpClient(handler) { BaseAddress = WithTrailingSlash(settings.ServerUrl), Timeout = TimeSpan.FromSeconds(30) };
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var counters = new LoadCounters(time);
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"Appending to {settings.Streams:N0} new streams ({settings.StreamPrefix}-0, -1, ...) at {settings.ServerUrl}, {settings.Concurrency} at a time. Ctrl+C stops.")).ConfigureAwait(false);

        long started = time.GetTimestamp();
        var progress = new ProgressLine(output, settings.Streams, counters, time);
        Task reporting = progress.RunAsync(stop.Token);
        long next = -1;
        Task[] workers = [.. Enumerable.Range(0, settings.Concurrency).Select(_ => Task.Run(async () =>
        {
            for (long i = Interlocked.Increment(ref next); i < settings.Streams && !stop.IsCancellationRequested; i = Interlocked.Increment(ref next))
            {
                await AppendAsync(http, $"{settings.StreamPrefix}-{i}", i, counters, time, stop).ConfigureAwait(false);
            }
        }, CancellationToken.None))];
        await Task.WhenAll(workers).ConfigureAwait(false);
        TimeSpan elapsed = time.GetElapsedTime(started);
        await stop.CancelAsync().ConfigureAwait(false);
        await reporting.ConfigureAwait(false);

        var result = new LoadResult(settings.Streams, counters.Created, counters.Conflicts, counters.Failed, elapsed);
        await progress.WriteSummaryAsync(result).ConfigureAwait(false);
        return result;
    }

    private static async Task AppendAsync(HttpClient http, string stream, long number, LoadCounters counters, TimeProvider time, CancellationTokenSource stop)
    {
        byte[] body = Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture, $"[{{\"type\":\"StreamCreated\",\"data\":{{\"n\":{number}}}}}]"));
        using var content = new ByteArrayContent(body);
        content.Headers.ContentType = Json;
        long started = time.GetTimestamp();
        try
        {
            using HttpResponseMessage response = await http.PostAsync(new Uri($"streams/{Uri.EscapeDataString(stream)}?expectedVersion=no-stream", UriKind.Relative), content, stop.Token).ConfigureAwait(false);
            switch (response.StatusCode)
            {
                case HttpStatusCode.Created:
                    counters.RecordCreated(started);
                    break;
                case HttpStatusCode.Conflict:
                    counters.RecordConflict(started);
                    break;
                default:
                    string detail = await response.Content.ReadAsStringAsync(stop.Token).ConfigureAwait(false);
                    counters.RecordFailure(started, $"{(int)response.StatusCode} {response.ReasonPhrase}: {detail}");
                    break;
            }
        }
        catch (HttpRequestException error)
        {
            // The server is not there (or went away): stop rather than fail every remaining stream one by one.
            counters.RecordFailure(started, $"cannot reach {http.BaseAddress}: {error.Message}");
            await stop.CancelAsync().ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (!stop.IsCancellationRequested)
        {
            counters.RecordFailure(started, $"no answer within {http.Timeout.TotalSeconds:F0} s");
        }
        catch (OperationCanceledException)
        {
            // Ctrl+C, or another worker found the server gone: this append is neither counted nor known to be written.
        }
    }

    private static Uri WithTrailingSlash(Uri url) =>
        url.AbsoluteUri.EndsWith('/') ? url : new Uri(url.AbsoluteUri + "/");
}
