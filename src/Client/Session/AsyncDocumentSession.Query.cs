using System.Globalization;
using Folio.Client.Linq;
using Folio.Client.Queries;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Session;

/// <summary>Running queries: LINQ, raw RQL and streams.</summary>
internal sealed partial class AsyncDocumentSession
{
    public IFolioQueryable<T> Query<T>(string? indexName = null, string? collectionName = null)
    {
        string source = QueryTranslator.Source(indexName, collectionName ?? Conventions.GetCollectionName(typeof(T)));
        return new FolioQueryable<T>(new FolioQueryProvider(this, source));
    }

    public IRawDocumentQuery<T> RawQuery<T>(string query) => new RawDocumentQuery<T>(this, query);

    internal async Task<List<T>> RunQueryAsync<T>(TranslatedQuery query, CancellationToken cancellationToken)
    {
        JObject answer = await ExecuteQueryAsync(query.Rql, query.Parameters, query.Customization, cancellationToken).ConfigureAwait(false);
        if (query.Statistics is not null)
            FillStatistics(answer, query.Statistics);
        var results = (JArray)answer["Results"]!;
        var list = new List<T>(results.Count);
        foreach (JToken result in results)
        {
            switch (query.Projection)
            {
                case ProjectionKind.None:
                    object? entity = query.Customization.IsNoTracking ? Untracked(result, typeof(T)) : Materialize(result, typeof(T));
                    if (entity is not null)
                        list.Add((T)entity);
                    break;
                case ProjectionKind.SingleField:
                    list.Add(result[query.SingleField!] is JToken value && value.Type != JTokenType.Null ? value.ToObject<T>(Serializer)! : default!);
                    break;
                default:
                    var projection = (JObject)result;
                    string? id = (string?)projection["@metadata"]?["@id"];
                    projection.Remove("@metadata");
                    foreach (string alias in query.IdAliases)
                        projection[alias] = id;
                    list.Add(projection.ToObject<T>(Serializer)!);
                    break;
            }
        }
        return list;
    }

    internal async Task<QueryStatistics> RunQueryForStatisticsAsync(TranslatedQuery query, CancellationToken cancellationToken)
    {
        JObject answer = await ExecuteQueryAsync(query.Rql, query.Parameters, query.Customization, cancellationToken).ConfigureAwait(false);
        QueryStatistics statistics = query.Statistics ?? new QueryStatistics();
        FillStatistics(answer, statistics);
        return statistics;
    }

    /// <summary>
    /// A query's result as an object: a whole document becomes a tracked entity (the tracked one when the session has
    /// it); a projection or a group-by row is read as it is, with the id from its metadata.
    /// </summary>
    internal object? Materialize(JToken result, Type type)
    {
        if (result is not JObject document)
            return Deserialize(result, type);
        if (document["@metadata"] is JObject metadata && metadata["@change-vector"] is not null && metadata["@projection"] is null)
            return TrackDocument(document, type);
        return Untracked(document, type);
    }

    internal object? Untracked(JToken result, Type type)
    {
        if (result is not JObject document)
            return Deserialize(result, type);
        string? id = (string?)document["@metadata"]?["@id"];
        document.Remove("@metadata");
        object? entity = document.ToObject(type, Serializer);
        if (entity is not null && id is not null)
            Conventions.SetId(entity, id);
        return entity;
    }

    internal async Task<JObject> ExecuteQueryAsync(string rql, IReadOnlyDictionary<string, JToken> parameters, QueryCustomization customization, CancellationToken cancellationToken)
    {
        IncrementRequestCount();
        var body = new JObject { ["Query"] = rql };
        if (parameters.Count > 0)
        {
            var values = new JObject();
            foreach (KeyValuePair<string, JToken> parameter in parameters)
                values[parameter.Key] = parameter.Value;
            body["QueryParameters"] = values;
        }
        if (customization.WaitForNonStale)
        {
            body["WaitForNonStaleResults"] = true;
            if (customization.WaitTimeout is TimeSpan timeout)
                body["WaitForNonStaleResultsTimeout"] = ((long)timeout.TotalMilliseconds).ToString(CultureInfo.InvariantCulture);
        }
        string path = DatabasePath("queries");
        JObject answer = (await Executor.SendForJsonAsync(
            url => new HttpRequestMessage(HttpMethod.Post, new Uri(url, path)) { Content = Http.RequestExecutor.JsonContent(body) },
            rql, cancellationToken).ConfigureAwait(false))!;
        AddIncludes(answer["Includes"] as JObject);
        return answer;
    }

    internal static void FillStatistics(JObject answer, QueryStatistics statistics)
    {
        statistics.TotalResults = (long?)answer["TotalResults"] ?? 0;
        statistics.SkippedResults = (long?)answer["SkippedResults"] ?? 0;
        statistics.IsStale = (bool?)answer["IsStale"] ?? false;
        statistics.IndexName = (string?)answer["IndexName"];
        statistics.IndexEtag = (long?)answer["IndexEtag"] ?? 0;
        statistics.DurationInMs = (double?)answer["DurationInMs"] ?? 0;
    }
}
