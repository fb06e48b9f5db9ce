using System.Text;
using System.Text.Json;
using Folio.Indexing.Documents;
using Folio.Indexing.Engines;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>
/// <c>GET /databases/{db}/indexes/terms?name=&amp;field=&amp;fromValue=&amp;pageSize=</c>, the seeds' clients'
/// <c>GetTermsOperation</c>: the terms of one field of an index as they are indexed (lower-cased where the field folds
/// case), in byte order after <c>fromValue</c>, at most <c>pageSize</c> (default 1,024), terms no live entry holds left
/// out; <c>{"IndexName","ResultEtag","Terms":[…]}</c>. A field the index does not have has no terms.
/// </summary>
public sealed class RavenIndexTermsHandler
{
    private const int DefaultPageSize = 1024;

    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    public RavenIndexTermsHandler(DatabaseRegistry databases) => _databases = databases;

    /// <summary>Answers the terms.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/indexes/terms", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        string name = QueryParameters.Required(request.Request, "name");
        string field = QueryParameters.Required(request.Request, "field");
        if (field.Length == 0)
            throw QueryParameters.Invalid("The query parameter 'field' must name a field of the index.");
        string? from = QueryParameters.Optional(request.Request, "fromValue");
        int pageSize = QueryParameters.Optional(request.Request, "pageSize") is { Length: > 0 }
            ? QueryParameters.NonNegativeInt32(request.Request, "pageSize", DefaultPageSize)
            : DefaultPageSize;

        var walker = new PageWalker(string.IsNullOrEmpty(from) ? [] : Encoding.UTF8.GetBytes(from), pageSize);
        long etag;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            DocumentIndex index = lease.Database.Indexes.Get(name)
                ?? throw new FolioHttpException(StatusCodes.Status404NotFound, "Index not found", $"There is no index named '{name}'.", ProblemTypes.IndexNotFound);
            if (index.TryOpenSearcher(out IEngineSearcher? searcher, out etag))
            {
                using (searcher)
                {
                    if (index.Schema.Fields.ContainsKey(field))
                        searcher.WalkTerms(field, walker);
                }
            }
        }

        await JsonResponse.WriteAsync(request.Response, (name, etag, walker.Terms), static (writer, answer) =>
        {
            writer.WriteStartObject();
            writer.WriteString("IndexName"u8, answer.name);
            writer.WriteNumber("ResultEtag"u8, answer.etag);
            writer.WriteStartArray("Terms"u8);
            foreach (string term in answer.Terms)
                writer.WriteStringValue(term);
            writer.WriteEndArray();
            writer.WriteEndObject();
        }, request.Aborted);
    }

    // Terms after `from` in byte order, up to `pageSize`, each held by a live entry.
    private sealed class PageWalker(byte[] from, int pageSize) : ITermWalker
    {
        public List<string> Terms { get; } = [];

        public bool Wants(ReadOnlySpan<byte> term) => Terms.Count < pageSize && term.SequenceCompareTo(from) > 0;

        public void Add(ReadOnlySpan<byte> term, long documentFrequency)
        {
            if (documentFrequency > 0 && Terms.Count < pageSize)
                Terms.Add(Encoding.UTF8.GetString(term));
        }
    }
}
