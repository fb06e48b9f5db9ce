using System.Text;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;
using LuceneQuery = Lucene.Net.Search.Query;

namespace Folio.Indexing.Engines.Lucene;

// More like this on Lucene.Net: the source document's terms come from the term vectors full-text fields store (an exact
// field's from its values, a term each), their document frequencies from the live postings, and the terms are chosen
// as on Folio's engine (MoreLikeThisTerms), so both engines look for the same terms.
internal sealed partial class LuceneQueryTranslator
{
    /// <inheritdoc/>
    public LuceneQuery Visit(MoreLikeThisQuery query)
    {
        if (searcher is null)
            throw new InvalidOperationException("More like this reads the index; translate it with a searcher.");
        var candidates = new List<MoreLikeThisCandidate>();
        LuceneQuery? sourceDocument = null;
        if (query.Source is { } source)
        {
            var matches = searcher.Iterate(source);
            if (!matches.MoveNext())
                return Nothing();
            var docId = (int)matches.Current;
            var vectors = searcher.Searcher.IndexReader.GetTermVectors(docId);
            foreach (var field in query.Fields)
            {
                if (schema.Get(field).Kind != FieldKind.FullText)
                    AddValueTerms(field, docId, candidates);
                else if (vectors?.GetTerms(field) is { } terms)
                    AddStoredTerms(field, terms, candidates);
            }
            if (query.DocumentField is { } documentField && searcher.GetValues(documentField, docId) is [var id, ..])
                sourceDocument = Equal(documentField, id);
        }
        else
        {
            foreach (var (field, text) in query.Document)
                AddAnalyzedTerms(field, text, query.Options.MaximumNumberOfTokensParsed, candidates);
        }
        var like = new BooleanQuery();
        foreach (var term in MoreLikeThisTerms.Select(candidates, query.Options, searcher.EntryCount))
            like.Add(new global::Lucene.Net.Search.TermQuery(new Term(term.Field, term.Term)) { Boost = term.Boost }, Occur.SHOULD);
        if (like.Clauses.Count == 0 || sourceDocument is null)
            return like;
        return new BooleanQuery
        {
            { like, Occur.MUST },
            { sourceDocument, Occur.MUST_NOT },
        };
    }

    /// <inheritdoc/>
    public LuceneQuery Visit(IntersectQuery query) => searcher is null
        ? throw new InvalidOperationException("An intersection reads the index; translate it with a searcher.")
        : Intersection.Rewrite(query, searcher).Accept(this);

    private void AddStoredTerms(string field, Terms terms, List<MoreLikeThisCandidate> candidates)
    {
        var walk = terms.GetEnumerator();
        while (walk.MoveNext())
        {
            // In a document's term vector a term's total frequency is its frequency in that document.
            var frequency = (int)walk.TotalTermFreq;
            candidates.Add(new MoreLikeThisCandidate(field, walk.Term.Utf8ToString(), frequency, searcher!.LiveDocumentFrequency(field, BytesRef.DeepCopyOf(walk.Term))));
        }
    }

    /// <summary>An exact field's values in the document: each value is one term, as an equality looks it up (exact fields keep no term vectors).</summary>
    private void AddValueTerms(string field, int docId, List<MoreLikeThisCandidate> candidates)
    {
        if (searcher!.GetValues(field, docId) is not { } values)
            return;
        var frequencies = new Dictionary<string, int>(StringComparer.Ordinal);
        foreach (var value in values)
        {
            if (FieldTerms.EqualityTerm(schema, field, value) is { } term && !TermEncoding.IsShortened(term))
                frequencies[Encoding.UTF8.GetString(term)] = frequencies.GetValueOrDefault(Encoding.UTF8.GetString(term)) + 1;
        }
        foreach (var (term, frequency) in frequencies)
            candidates.Add(new MoreLikeThisCandidate(field, term, frequency, searcher.LiveDocumentFrequency(field, new BytesRef(Encoding.UTF8.GetBytes(term)))));
    }

    private void AddAnalyzedTerms(string field, string text, int maxTokens, List<MoreLikeThisCandidate> candidates)
    {
        var frequencies = new Dictionary<string, int>(StringComparer.Ordinal);
        var tokens = schema.Get(field).EffectiveAnalyzer.AnalyzeToList(text);
        for (var i = 0; i < tokens.Count && i < maxTokens; i++)
            frequencies[tokens[i].Term] = frequencies.GetValueOrDefault(tokens[i].Term) + 1;
        foreach (var (term, frequency) in frequencies)
            candidates.Add(new MoreLikeThisCandidate(field, term, frequency, searcher!.LiveDocumentFrequency(field, new BytesRef(Encoding.UTF8.GetBytes(term)))));
    }
}
