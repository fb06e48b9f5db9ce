using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;

namespace Folio.Import;

/// <summary>
/// The CLI's commands besides importing: <c>export</c> (a database's NDJSON export into a file), <c>backup</c> and
/// <c>restore</c> (the server's backup endpoints). Each asks the server and reports; exit codes as for the import.
/// </summary>
public static class ServerCommands
{
    /// <summary>The help text of the commands.</summary>
    public const string Usage = """
        Usage: folio-import export  --database NAME --output FILE [--gzip] [--url URL]
               folio-import backup  --database NAME --directory DIR [--kind Full|Incremental] [--url URL]
               folio-import restore --directory DIR --name NEWNAME [--url URL]
          export     writes the database's export (documents, then static index definitions) to FILE; --gzip compresses it.
                     Import it again with: folio-import --database NAME --from-export FILE
          backup     has the server write a full backup into DIR on its machine, or an incremental one when DIR holds a set
          restore    has the server restore the backup set in DIR into a new database NEWNAME
        """;

    /// <summary>Runs <paramref name="command"/> (<c>export</c>, <c>backup</c> or <c>restore</c>).</summary>
    /// <returns>0 on success, 1 when the server refused or could not be reached, 2 for a usage error.</returns>
    public static async Task<int> RunAsync(string command, string[] args, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        ArgumentNullException.ThrowIfNull(error);
        (string[] values, string[] flags, string[] required) = command switch
        {
            "export" => (new[] { "--database", "--output" }, new[] { "--gzip" }, new[] { "--database", "--output" }),
            "backup" => (new[] { "--database", "--directory", "--kind" }, Array.Empty<string>(), new[] { "--database", "--directory" }),
            _ => (new[] { "--directory", "--name" }, Array.Empty<string>(), new[] { "--directory", "--name" }),
        };
        if (!ServerCommandOptions.TryParse(args, values, flags, required, out ServerCommandOptions options, out string problem))
        {
            if (problem.Length > 0)
                await error.WriteLineAsync(problem).ConfigureAwait(false);
            await error.WriteLineAsync(Usage).ConfigureAwait(false);
            return 2;
        }

        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = options.Url, Timeout = Timeout.InfiniteTimeSpan };
        try
        {
            return command switch
            {
                "export" => await ExportAsync(client, options, output, error, cancellationToken).ConfigureAwait(false),
                "backup" => await PostAsync(client, $"/admin/databases/{Uri.EscapeDataString(options.Value("--database")!)}/backup", Body(("Directory", options.Value("--directory")), ("Kind", options.Value("--kind"))), BackupSummary, output, error, cancellationToken).ConfigureAwait(false),
                _ => await PostAsync(client, "/admin/databases/restore", Body(("Directory", options.Value("--directory")), ("Name", options.Value("--name"))), RestoreSummary, output, error, cancellationToken).ConfigureAwait(false),
            };
        }
        catch (Exception e) when (e is HttpRequestException or IOException or OperationCanceledException or UnauthorizedAccessException)
        {
            await error.WriteLineAsync($"The {command} stopped: {e.Message}").ConfigureAwait(false);
            return 1;
        }
    }

    private static async Task<int> ExportAsync(HttpClient client, ServerCommandOptions options, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        bool gzip = options.Flag("--gzip");
        string file = Path.GetFullPath(options.Value("--output")!);
        string partial = file + ".partial";
        var clock = Stopwatch.StartNew();
        using HttpResponseMessage response = await client.GetAsync(
            $"/databases/{Uri.EscapeDataString(options.Value("--database")!)}/export{(gzip ? "?compress=gzip" : string.Empty)}",
            HttpCompletionOption.ResponseHeadersRead,
            cancellationToken).ConfigureAwait(false);
        if (response.StatusCode != HttpStatusCode.OK)
        {
            await error.WriteLineAsync($"The server refused the export ({(int)response.StatusCode}): {ImportCommand.Detail(await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false))}").ConfigureAwait(false);
            return 1;
        }

        // Written beside and renamed once complete, so a broken stream never leaves a file that looks whole.
        long bytes;
        try
        {
            await using (var target = new FileStream(partial, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 16, FileOptions.Asynchronous))
            {
                await using Stream source = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
                await source.CopyToAsync(target, 1 << 16, cancellationToken).ConfigureAwait(false);
                bytes = target.Length;
            }

            File.Move(partial, file, overwrite: true);
        }
        catch
        {
            File.Delete(partial);
            throw;
        }

        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"Exported {bytes / (1024.0 * 1024.0):F1} MB to {file} in {clock.Elapsed.TotalSeconds:F1} s.")).ConfigureAwait(false);
        return 0;
    }

    private static async Task<int> PostAsync(HttpClient client, string uri, string body, Func<JsonElement, string> summary, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        using var content = new StringContent(body, Encoding.UTF8, "application/json");
        using HttpResponseMessage response = await client.PostAsync(uri, content, cancellationToken).ConfigureAwait(false);
        string text = await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);
        if (response.StatusCode != HttpStatusCode.Created)
        {
            await error.WriteLineAsync($"The server refused ({(int)response.StatusCode}): {ImportCommand.Detail(text)}").ConfigureAwait(false);
            return 1;
        }

        using JsonDocument answer = JsonDocument.Parse(text);
        await output.WriteLineAsync(summary(answer.RootElement)).ConfigureAwait(false);
        return 0;
    }

    private static string Body(params (string Name, string? Value)[] properties)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            foreach ((string name, string? value) in properties)
            {
                if (value is not null)
                    writer.WriteString(name, value);
            }

            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.ToArray());
    }

    private static string BackupSummary(JsonElement file) => string.Create(
        CultureInfo.InvariantCulture,
        $"{file.GetProperty("Kind").GetString()} backup {file.GetProperty("File").GetString()} in {file.GetProperty("Directory").GetString()}: {file.GetProperty("Documents").GetInt64():N0} documents, {file.GetProperty("Deletes").GetInt64():N0} deletes, etags {file.GetProperty("FromEtag").GetInt64()}..{file.GetProperty("ToEtag").GetInt64()}, {file.GetProperty("Bytes").GetInt64() / (1024.0 * 1024.0):F1} MB.");

    private static string RestoreSummary(JsonElement summary) => string.Create(
        CultureInfo.InvariantCulture,
        $"Restored {summary.GetProperty("Documents").GetInt64():N0} documents, {summary.GetProperty("Indexes").GetInt32()} indexes and {summary.GetProperty("Subscriptions").GetInt32()} subscriptions from {summary.GetProperty("Files").GetInt32()} files into {summary.GetProperty("Name").GetString()} in {summary.GetProperty("DurationInMs").GetDouble() / 1000:F1} s.");
}
