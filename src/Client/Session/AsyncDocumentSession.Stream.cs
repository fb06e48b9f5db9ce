using System.Runtime.CompilerServices;
using System.Text;
using Folio.Client.Http;
using Folio.Client.Linq;
using Folio.Client.Queries;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Session;

/// <summary>Streaming every result of a query, read one by one as the server writes them.</summary>
internal sealed partial class AsyncDocumentSession
{
    public IAsyncEnumerable<StreamResult<T>> StreamAsync<T>(string query, IReadOnlyDictionary<string, object?>? parameters = null, CancellationToken cancellationToken = default)
    {
        var values = new Dictionary<string, JToken>();
        if (parameters is not null)
        {
            foreach (KeyValuePair<string, object?> parameter in parameters)
                values[parameter.Key.TrimStart('$')] = parameter.Value is null ? JValue.CreateNull() : JToken.FromObject(parameter.Value, Serializer);
        }
        return StreamCoreAsync<T>(RqlInliner.Inline(query, values), null, cancellationToken);
    }

    public IAsyncEnumerable<StreamResult<T>> StreamAsync<T>(IQueryable<T> query, CancellationToken cancellationToken = default)
    {
        var provider = query.Provider as FolioQueryProvider ?? throw new NotSupportedException("This is not a Folio query: start from session.Query<T>().");
        TranslatedQuery translated = provider.Translate(query.Expression, ResultOperator.List);
        return StreamCoreAsync<T>(RqlInliner.Inline(translated.Rql, translated.Parameters), translated, cancellationToken);
    }

    private async IAsyncEnumerable<StreamResult<T>> StreamCoreAsync<T>(string rql, TranslatedQuery? translated, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        IncrementRequestCount();
        string path = new UrlBuilder(DatabasePath("streams/queries")).Add("query", rql).ToString();
        using HttpResponseMessage response = await Executor.SendAsync(url => new HttpRequestMessage(HttpMethod.Get, new Uri(url, path)), rql, cancellationToken, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);
        await using Stream stream = await response.Content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
        using var text = new StreamReader(stream, Encoding.UTF8);
        using var reader = new JsonTextReader(text) { DateParseHandling = DateParseHandling.None };
        while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            if (reader.TokenType == JsonToken.PropertyName && (string?)reader.Value == "Results" && reader.Depth == 1)
                break;
        }
        if (!await reader.ReadAsync(cancellationToken).ConfigureAwait(false) || reader.TokenType != JsonToken.StartArray)
            throw new Exceptions.FolioException("The server's stream answer has no Results array.");
        while (await reader.ReadAsync(cancellationToken).ConfigureAwait(false) && reader.TokenType != JsonToken.EndArray)
        {
            JToken item = await JToken.LoadAsync(reader, cancellationToken).ConfigureAwait(false);
            yield return ToStreamResult<T>(item, translated);
        }
    }

    private StreamResult<T> ToStreamResult<T>(JToken item, TranslatedQuery? translated)
    {
        var metadata = item["@metadata"] as JObject ?? new JObject();
        string? id = (string?)metadata["@id"];
        T document;
        if (translated?.Projection == ProjectionKind.SingleField)
        {
            JToken? value = item[translated.SingleField!];
            document = value is null || value.Type == JTokenType.Null ? default! : value.ToObject<T>(Serializer)!;
        }
        else
        {
            if (item is JObject obj)
            {
                obj.Remove("@metadata");
                if (translated is not null)
                {
                    foreach (string alias in translated.IdAliases)
                        obj[alias] = id;
                }
            }
            document = item.ToObject<T>(Serializer)!;
            if (document is not null && id is not null && translated?.Projection is null or ProjectionKind.None)
                Conventions.SetId(document, id);
        }
        return new StreamResult<T>(id, (string?)metadata["@change-vector"], metadata, document);
    }
}
