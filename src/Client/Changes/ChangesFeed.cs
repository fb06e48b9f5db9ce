using System.Globalization;
using System.Net.WebSockets;
using System.Runtime.CompilerServices;
using System.Text;
using Folio.Client.Http;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Changes;

/// <summary>
/// A database's document changes as they happen, read from the server's continuous feed
/// (<c>GET /databases/{db}/changes?feed=continuous</c>, one JSON line per change). The feed is read by etag, so a
/// consumer never makes the server hold changes for it; when the connection drops, the enumeration reconnects from
/// the last etag it handed out, so no change is skipped.
/// </summary>
public sealed class ChangesFeed
{
    private readonly DocumentStore _store;
    private readonly string _database;

    internal ChangesFeed(DocumentStore store, string database)
    {
        _store = store;
        _database = database;
        store.Initialize();
    }

    /// <summary>Every document change after <paramref name="since"/> (an etag; null: from the database's last etag now, so only later changes).</summary>
    public IAsyncEnumerable<DocumentChange> ForAllDocumentsAsync(long? since = null, CancellationToken cancellationToken = default) =>
        ReadAsync(since, null, null, cancellationToken);

    /// <summary>Changes of one document.</summary>
    public IAsyncEnumerable<DocumentChange> ForDocumentAsync(string id, long? since = null, CancellationToken cancellationToken = default) =>
        ReadAsync(since, "id", id, cancellationToken);

    /// <summary>Changes of the documents whose ids start with <paramref name="prefix"/>.</summary>
    public IAsyncEnumerable<DocumentChange> ForDocumentsStartingWithAsync(string prefix, long? since = null, CancellationToken cancellationToken = default) =>
        ReadAsync(since, "prefix", prefix, cancellationToken);

    /// <summary>Changes of the documents of a collection.</summary>
    public IAsyncEnumerable<DocumentChange> ForDocumentsInCollectionAsync(string collection, long? since = null, CancellationToken cancellationToken = default) =>
        ReadAsync(since, "collection", collection, cancellationToken);

    /// <summary>Changes of the documents of <typeparamref name="T"/>'s collection.</summary>
    public IAsyncEnumerable<DocumentChange> ForDocumentsInCollectionAsync<T>(long? since = null, CancellationToken cancellationToken = default) =>
        ReadAsync(since, "collection", _store.Conventions.GetCollectionName(typeof(T)), cancellationToken);

    /// <summary>
    /// Changes of the database's indexes (created, deleted, reset, a batch indexed), over the changes WebSocket; the
    /// enumeration ends when the server closes the socket (the database deleted, the server stopping).
    /// </summary>
    public async IAsyncEnumerable<IndexChange> ForIndexesAsync([EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        Uri http = _store.Executor.BaseUrl;
        var builder = new UriBuilder(new Uri(http, UrlBuilder.ForDatabase(_database, "changes").ToString())) { Scheme = http.Scheme == Uri.UriSchemeHttps ? "wss" : "ws" };
        using var socket = new ClientWebSocket();
        socket.Options.Proxy = null;
        if (_store.Executor.ApiKey is { } key)
            socket.Options.SetRequestHeader("Authorization", "ApiKey " + key);
        socket.Options.RemoteCertificateValidationCallback = _store.Executor.CertificateCheck.Validate;
        if (_store.Executor.ClientCertificate is { } certificate)
            socket.Options.ClientCertificates.Add(certificate);
        await socket.ConnectAsync(builder.Uri, cancellationToken).ConfigureAwait(false);
        await socket.SendAsync("{\"Command\":\"WatchIndexes\"}"u8.ToArray(), WebSocketMessageType.Text, true, cancellationToken).ConfigureAwait(false);
        var buffer = new byte[16 * 1024];
        var message = new MemoryStream();
        while (true)
        {
            message.SetLength(0);
            WebSocketReceiveResult received;
            do
            {
                received = await socket.ReceiveAsync(buffer, cancellationToken).ConfigureAwait(false);
                if (received.MessageType == WebSocketMessageType.Close)
                    yield break;
                message.Write(buffer, 0, received.Count);
            }
            while (!received.EndOfMessage);
            JObject json = JObject.Parse(Encoding.UTF8.GetString(message.GetBuffer(), 0, (int)message.Length));
            switch ((string?)json["Type"])
            {
                case "IndexChange":
                    yield return json.ToObject<IndexChange>()!;
                    break;
                case "Error":
                    throw new Exceptions.FolioException($"The changes socket refused a command: {(string?)json["Title"]}: {(string?)json["Detail"]}");
            }
        }
    }

    private async Task<long> LastEtagAsync(CancellationToken cancellationToken)
    {
        string path = UrlBuilder.ForDatabase(_database, "stats").ToString();
        JObject? stats = await _store.Executor.SendForJsonAsync(url => new HttpRequestMessage(HttpMethod.Get, new Uri(url, path)), null, cancellationToken).ConfigureAwait(false);
        return (long?)stats?["LastDocEtag"] ?? 0;
    }

    private async IAsyncEnumerable<DocumentChange> ReadAsync(long? since, string? filter, string? value, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        // "now" is pinned to an etag before the first connection, so a reconnect resumes from there rather than from a later "now".
        since ??= await LastEtagAsync(cancellationToken).ConfigureAwait(false);
        string position = since.Value.ToString(CultureInfo.InvariantCulture);
        while (!cancellationToken.IsCancellationRequested)
        {
            var url = UrlBuilder.ForDatabase(_database, "changes").Add("feed", "continuous").Add("since", position).Add("heartbeat", "5000");
            if (filter is not null)
                url.Add(filter, value!);
            string path = url.ToString();
            HttpResponseMessage response;
            try
            {
                response = await _store.Executor.SendAsync(u => new HttpRequestMessage(HttpMethod.Get, new Uri(u, path)), null, cancellationToken, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
            }
            catch (HttpRequestException) when (!cancellationToken.IsCancellationRequested)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(500), cancellationToken).ConfigureAwait(false);
                continue;
            }
            using (response)
            {
                Stream stream = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
                using var reader = new StreamReader(stream, Encoding.UTF8);
                while (true)
                {
                    string? line;
                    try
                    {
                        line = await reader.ReadLineAsync(cancellationToken).ConfigureAwait(false);
                    }
                    catch (IOException) when (!cancellationToken.IsCancellationRequested)
                    {
                        break; // the connection dropped: reconnect from the last etag handed out
                    }
                    catch (HttpRequestException) when (!cancellationToken.IsCancellationRequested)
                    {
                        break;
                    }
                    if (line is null)
                        break;
                    if (line.Length == 0)
                        continue; // heartbeat
                    JObject message = JObject.Parse(line);
                    if (message["Id"] is null)
                    {
                        // The feed's last line, {"LastEtag":N}: it ended (a limit or timeout); go on from there.
                        if (message["LastEtag"] is JToken last)
                            position = ((long)last).ToString(CultureInfo.InvariantCulture);
                        break;
                    }
                    DocumentChange change = message.ToObject<DocumentChange>()!;
                    position = change.Etag.ToString(CultureInfo.InvariantCulture);
                    yield return change;
                }
            }
        }
    }
}
