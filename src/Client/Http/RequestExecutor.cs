using System.Net;
using System.Net.Http.Headers;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using Folio.Client.Exceptions;
using Folio.Client.Security;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Http;

/// <summary>
/// Sends requests to the first of the store's servers that answers, over the one <see cref="HttpClient"/> the store
/// shares, and turns problem answers into typed exceptions.
/// </summary>
internal sealed class RequestExecutor : IDisposable
{
    internal static readonly MediaTypeHeaderValue JsonMediaType = new("application/json") { CharSet = "utf-8" };

    private readonly Uri[] _urls;
    private readonly TimeSpan _requestTimeout;
    private int _preferred;

    public RequestExecutor(IReadOnlyList<string> urls, TimeSpan requestTimeout, string? apiKey = null, TlsOptions? tls = null)
    {
        ApiKey = apiKey;
        tls ??= new TlsOptions();
        ClientCertificate = tls.ClientCertificate;
        UseTlsForSubscriptions = tls.UseTlsForSubscriptions;
        CertificateCheck = new ServerCertificateCheck(tls.TrustedServerThumbprints);
        _requestTimeout = requestTimeout;
        if (urls.Count == 0)
            throw new InvalidOperationException("The document store needs at least one server url (DocumentStore.Urls).");
        _urls = new Uri[urls.Count];
        for (int i = 0; i < urls.Count; i++)
        {
            string url = urls[i];
            _urls[i] = new Uri(url.EndsWith('/') ? url : url + "/", UriKind.Absolute);
        }
        Http = new HttpClient(new SocketsHttpHandler
        {
            UseProxy = false,
            PooledConnectionIdleTimeout = TimeSpan.FromMinutes(2),
            AutomaticDecompression = DecompressionMethods.None,
            SslOptions = ClientAuthentication(string.Empty),
        })
        {
            // Streams (bulk insert, changes, query streams) run as long as they need; other requests get _requestTimeout.
            Timeout = Timeout.InfiniteTimeSpan,
        };
        if (apiKey is not null)
            Http.DefaultRequestHeaders.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("ApiKey", apiKey);
    }

    /// <summary>The API key sent with every request, or null.</summary>
    public string? ApiKey { get; }

    /// <summary>The client certificate presented on TLS connections, or null.</summary>
    public X509Certificate2? ClientCertificate { get; }

    /// <summary>Whether subscriptions speak TLS; null follows the url's scheme.</summary>
    public bool? UseTlsForSubscriptions { get; }

    /// <summary>Which server certificates are accepted.</summary>
    public ServerCertificateCheck CertificateCheck { get; }

    /// <summary>TLS client options for a connection to <paramref name="host"/> (empty lets HTTP fill it in): the certificate check and the client certificate.</summary>
    public SslClientAuthenticationOptions ClientAuthentication(string host) => new()
    {
        TargetHost = host,
        RemoteCertificateValidationCallback = CertificateCheck.Validate,
        ClientCertificates = ClientCertificate is null ? null : new X509CertificateCollection { ClientCertificate },
        CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
    };

    /// <summary>The client every request goes through.</summary>
    public HttpClient Http { get; }

    /// <summary>The server requests go to now.</summary>
    public Uri BaseUrl => _urls[Volatile.Read(ref _preferred)];

    /// <summary>
    /// Sends the request built by <paramref name="build"/> (called again for each server tried) and answers the
    /// response of a success status; a problem answer throws. A server that cannot be reached is skipped for the next.
    /// </summary>
    public async Task<HttpResponseMessage> SendAsync(Func<Uri, HttpRequestMessage> build, string? query, CancellationToken cancellationToken, HttpCompletionOption completion = HttpCompletionOption.ResponseContentRead)
    {
        int first = Volatile.Read(ref _preferred);
        for (int attempt = 0; ; attempt++)
        {
            int index = (first + attempt) % _urls.Length;
            using HttpRequestMessage request = build(_urls[index]);
            HttpResponseMessage response;
            try
            {
                response = await Http.SendAsync(request, completion, cancellationToken).ConfigureAwait(false);
            }
            catch (HttpRequestException) when (attempt + 1 < _urls.Length && request.Content is null or ByteArrayContent)
            {
                continue;
            }
            if (index != first)
                Volatile.Write(ref _preferred, index);
            if (response.IsSuccessStatusCode || response.StatusCode == HttpStatusCode.NotModified)
                return response;
            using (response)
                throw await ToExceptionAsync(response, query, cancellationToken).ConfigureAwait(false);
        }
    }

    /// <summary>Sends a request and reads its JSON object answer; null for 404 when <paramref name="notFoundIsNull"/>.</summary>
    public async Task<JObject?> SendForJsonAsync(Func<Uri, HttpRequestMessage> build, string? query, CancellationToken cancellationToken, bool notFoundIsNull = false)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_requestTimeout);
        HttpResponseMessage response;
        try
        {
            // The answer is read whole here, so parsing it below reads memory, not the network.
            response = await SendAsync(build, query, timeout.Token, HttpCompletionOption.ResponseContentRead).ConfigureAwait(false);
        }
        catch (FolioException e) when (notFoundIsNull && e.Status == HttpStatusCode.NotFound && e.ProblemType == ProblemTypes.DocumentNotFound)
        {
            return null;
        }
        using (response)
        {
            if (response.StatusCode == HttpStatusCode.NoContent)
                return null;
            return ReadBufferedJson(response);
        }
    }

    /// <summary>Sends a request and answers its body as text; null for 404 <c>document-not-found</c>.</summary>
    public async Task<string?> SendForTextAsync(Func<Uri, HttpRequestMessage> build, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(_requestTimeout);
        HttpResponseMessage response;
        try
        {
            response = await SendAsync(build, null, timeout.Token, HttpCompletionOption.ResponseContentRead).ConfigureAwait(false);
        }
        catch (FolioException e) when (e.Status == HttpStatusCode.NotFound && e.ProblemType == ProblemTypes.DocumentNotFound)
        {
            return null;
        }
        using (response)
            return await response.Content.ReadAsStringAsync(timeout.Token).ConfigureAwait(false);
    }

    /// <summary>Parses an answer whose body has been read into memory already.</summary>
    private static JObject ReadBufferedJson(HttpResponseMessage response)
    {
        using Stream stream = response.Content.ReadAsStream();
        using var text = new StreamReader(stream, Encoding.UTF8);
        using var reader = new JsonTextReader(text) { DateParseHandling = DateParseHandling.None };
        return JObject.Load(reader);
    }

    /// <summary>Parses an answer read from the network as it comes.</summary>
    public static async Task<JObject> ReadJsonAsync(HttpResponseMessage response, CancellationToken cancellationToken)
    {
        await using Stream stream = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
        using var text = new StreamReader(stream, Encoding.UTF8);
        using var reader = new JsonTextReader(text) { DateParseHandling = DateParseHandling.None };
        return await JObject.LoadAsync(reader, cancellationToken).ConfigureAwait(false);
    }

    public static HttpContent JsonContent(JToken body) => JsonContent(Encoding.UTF8.GetBytes(body.ToString(Formatting.None)));

    public static HttpContent JsonContent(byte[] body)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = JsonMediaType;
        return content;
    }

    /// <summary>The typed exception for a problem answer (or any failure status).</summary>
    public static async Task<FolioException> ToExceptionAsync(HttpResponseMessage response, string? query, CancellationToken cancellationToken)
    {
        string? type = null, title = null, detail = null;
        string body = await response.Content.ReadAsStringAsync(cancellationToken).ConfigureAwait(false);
        if (body.Length > 0)
        {
            try
            {
                JObject problem = JObject.Parse(body);
                type = (string?)problem["type"];
                title = (string?)problem["title"];
                detail = (string?)problem["detail"];
            }
            catch (JsonReaderException)
            {
                detail = body;
            }
        }
        title ??= response.ReasonPhrase;
        HttpStatusCode status = response.StatusCode;
        return type switch
        {
            ProblemTypes.ConcurrencyConflict => new ConcurrencyException(status, type, title, detail),
            ProblemTypes.IndexesTimeout => new IndexesTimeoutException(status, type, title, detail),
            ProblemTypes.InvalidQuery or ProblemTypes.IndexNotFound when query is not null => new QueryException(status, type, title, detail, query),
            _ => new FolioException(status, type, title, detail),
        };
    }

    public void Dispose() => Http.Dispose();
}
