using System.Globalization;
using System.Net;
using System.Text.Json;

namespace Folio.Import;

/// <summary>The importer's work, apart from the console so it can run in tests.</summary>
public static class ImportCommand
{
    /// <summary>Imports the files named in <paramref name="args"/> and reports on <paramref name="output"/>.</summary>
    /// <param name="args">The command line (see <see cref="ImportOptions.Usage"/>).</param>
    /// <param name="output">Progress and the summary.</param>
    /// <param name="error">Usage and failure messages.</param>
    /// <param name="interactive">Whether <paramref name="output"/> is a terminal (the bar redraws in place).</param>
    /// <param name="cancellationToken">Abandons the import; the server keeps the batches it committed.</param>
    /// <returns>0 when every document was stored, 1 when the import failed, 2 for a usage error.</returns>
    public static async Task<int> RunAsync(string[] args, TextWriter output, TextWriter error, bool interactive, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        if (!ImportOptions.TryParse(args, out ImportOptions options, out string problem))
        {
            if (problem.Length > 0)
                await error.WriteLineAsync(problem).ConfigureAwait(false);
            await error.WriteLineAsync(ImportOptions.Usage).ConfigureAwait(false);
            return 2;
        }

        long total = 0;
        foreach (string file in options.Files)
            total += new FileInfo(file).Length;
        var progress = new ImportProgress(total);
        var display = new ProgressDisplay(progress, output, interactive);
        using var stopDisplay = new CancellationTokenSource();
        Task drawing = display.RunAsync(stopDisplay.Token);

        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = options.Url, Timeout = Timeout.InfiniteTimeSpan };
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/databases/{Uri.EscapeDataString(options.Database)}/{(options.FromExport ? "import" : "bulk_insert")}")
        {
            Content = options.FromExport ? new ExportFileContent(options.Files[0], progress) : new ImportContent(options, progress),
        };

        try
        {
            using HttpResponseMessage response = await client.SendAsync(request, cancellationToken).ConfigureAwait(false);
            string body = await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);
            await StopAsync(stopDisplay, drawing).ConfigureAwait(false);
            if (response.StatusCode == HttpStatusCode.Created)
            {
                await output.WriteLineAsync(options.FromExport ? ExportSummary(body) : Summary(body)).ConfigureAwait(false);
                return 0;
            }

            await error.WriteLineAsync($"The server refused the import ({(int)response.StatusCode}): {Detail(body)}").ConfigureAwait(false);
            return 1;
        }
        catch (Exception e) when (e is HttpRequestException or ImportException or IOException or OperationCanceledException)
        {
            await StopAsync(stopDisplay, drawing).ConfigureAwait(false);
            // A bad input file surfaces wrapped by HttpClient; its own message says where.
            Exception cause = e;
            for (Exception? inner = e; inner is not null; inner = inner.InnerException)
            {
                if (inner is ImportException)
                    cause = inner;
            }

            await error.WriteLineAsync($"The import stopped: {cause.Message} The server keeps the batches it committed before the stream broke ({progress.Documents:N0} documents were sent).").ConfigureAwait(false);
            return 1;
        }
    }

    private static async Task StopAsync(CancellationTokenSource stop, Task drawing)
    {
        await stop.CancelAsync().ConfigureAwait(false);
        await drawing.ConfigureAwait(false);
    }

    private static string Summary(string body)
    {
        using JsonDocument summary = JsonDocument.Parse(body);
        JsonElement root = summary.RootElement;
        long documents = root.GetProperty("Documents").GetInt64();
        double seconds = root.GetProperty("DurationInMs").GetDouble() / 1000;
        return string.Create(
            CultureInfo.InvariantCulture,
            $"Imported {documents:N0} documents ({root.GetProperty("Bytes").GetInt64() / (1024.0 * 1024.0):F1} MB) in {root.GetProperty("Batches").GetInt64()} batches, {seconds:F1} s on the server ({documents / Math.Max(seconds, 1e-3):N0} docs/s); last etag {root.GetProperty("LastEtag").GetInt64()}.");
    }

    private static string ExportSummary(string body)
    {
        using JsonDocument summary = JsonDocument.Parse(body);
        JsonElement root = summary.RootElement;
        long documents = root.GetProperty("Documents").GetInt64();
        double seconds = root.GetProperty("DurationInMs").GetDouble() / 1000;
        return string.Create(
            CultureInfo.InvariantCulture,
            $"Imported the export: {documents:N0} documents and {root.GetProperty("Indexes").GetInt32()} index definitions in {seconds:F1} s on the server ({documents / Math.Max(seconds, 1e-3):N0} docs/s).");
    }

    /// <summary>The <c>detail</c> of a problem+json answer, else the body as it came.</summary>
    internal static string Detail(string body)
    {
        try
        {
            using JsonDocument problem = JsonDocument.Parse(body);
            return problem.RootElement.TryGetProperty("detail", out JsonElement detail) ? detail.GetString() ?? body : body;
        }
        catch (JsonException)
        {
            return body;
        }
    }
}
