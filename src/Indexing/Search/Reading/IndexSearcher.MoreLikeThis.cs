using System.Text;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Search;

// More like this on Folio's engine: the source entry's terms come from the token streams its record keeps for each
// full-text field (term ids, read back through the field's term dictionary) and from an exact field's values (a term each), their document frequencies from the
// postings' headers; the query is the union of the chosen terms' scorers, without the source document's entries.
public sealed partial class IndexSearcher
{
    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(MoreLikeThisQuery query)
    {
        var candidates = new List<MoreLikeThisCandidate>();
        DocIdIterator? sourceDocument = null;
        if (query.Source is { } source)
        {
            var matches = source.Accept(this);
            if (!matches.MoveNext())
                return new EmptyIterator();
            var entryId = matches.Current;
            foreach (var field in query.Fields)
            {
                if (_index.Schema.Get(field).Kind == FieldKind.FullText)
                    AddStoredTerms(field, entryId, query.Options.MaximumNumberOfTokensParsed, candidates);
                else
                    AddValueTerms(field, entryId, candidates);
            }
            if (query.DocumentField is { } documentField && GetValues(documentField, entryId) is [var id, ..])
                sourceDocument = Equal(documentField, id);
        }
        else
        {
            foreach (var (field, text) in query.Document)
                AddAnalyzedTerms(field, text, query.Options.MaximumNumberOfTokensParsed, candidates);
        }
        var terms = MoreLikeThisTerms.Select(candidates, query.Options, EntryCount);
        var scorers = new List<DocIdIterator>(terms.Count);
        foreach (var term in terms)
        {
            if (Scorer(term.Field, TermEncoding.Text(term.Term)) is not { } scorer)
                continue;
            scorers.Add(term.Boost == 1f ? scorer : new BoostIterator(scorer, term.Boost, scored: true));
        }
        DocIdIterator like = scorers.Count switch
        {
            0 => new EmptyIterator(),
            1 => scorers[0],
            _ => new OrIterator([.. scorers]),
        };
        return sourceDocument is null ? like : new AndNotIterator(like, sourceDocument);
    }

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(IntersectQuery query) => Engines.Intersection.Rewrite(query, this).Accept(this);

    /// <summary>Counts the terms of <paramref name="field"/> in the entry's record (its first <paramref name="maxTokens"/> tokens).</summary>
    private void AddStoredTerms(string field, long entryId, int maxTokens, List<MoreLikeThisCandidate> candidates)
    {
        var reader = Field(field);
        Span<byte> entryKey = stackalloc byte[SearchIndex.MaxEntryKeySize];
        if (reader.Ordinal < 0 || !EntryStore.TryGet(EntryCursor, entryId, entryKey, out var record))
            return;
        var frequencies = new Dictionary<long, int>();
        var position = 0;
        var shape = _index.Shapes.ReadRecordShape(record, ref position, _shapes);
        const byte tokenFlags = EntryRecord.TermIdsFlag | EntryRecord.PositionsFlag;
        for (var f = 0; f < shape.FieldCount; f++)
        {
            var flags = shape.Flags(f);
            if (shape.Ordinal(f) != reader.Ordinal || (flags & tokenFlags) != tokenFlags)
            {
                EntryRecord.SkipTerms(record, ref position, flags);
                continue;
            }
            var tokens = new TokenReader(record, position);
            for (var read = 0; tokens.Remaining > 0 && read < maxTokens; read++)
            {
                var termId = tokens.Next();
                frequencies[termId] = frequencies.GetValueOrDefault(termId) + 1;
            }
            break;
        }
        Span<byte> idKey = stackalloc byte[8];
        foreach (var (termId, frequency) in frequencies)
        {
            var term = reader.TermOf(termId, idKey);
            // A shortened term keeps too little of its word to be one the query could look for.
            if (TermEncoding.IsShortened(term))
                continue;
            AddCandidate(field, term.ToArray(), frequency, candidates);
        }
    }

    /// <summary>Counts the terms of an exact field's values in the entry: each value is one term, as an equality looks it up.</summary>
    private void AddValueTerms(string field, long entryId, List<MoreLikeThisCandidate> candidates)
    {
        if (GetValues(field, entryId) is not { } values)
            return;
        var frequencies = new Dictionary<string, (byte[] Term, int Count)>(StringComparer.Ordinal);
        foreach (var value in values)
        {
            if (EqualityTerm(field, value) is not { } term || TermEncoding.IsShortened(term))
                continue;
            var word = Encoding.UTF8.GetString(term);
            frequencies[word] = (term, frequencies.GetValueOrDefault(word).Count + 1);
        }
        foreach (var (term, count) in frequencies.Values)
            AddCandidate(field, term, count, candidates);
    }

    /// <summary>Counts the terms of <paramref name="text"/> analyzed as <paramref name="field"/> analyzes it.</summary>
    private void AddAnalyzedTerms(string field, string text, int maxTokens, List<MoreLikeThisCandidate> candidates)
    {
        var frequencies = new Dictionary<string, (byte[] Term, int Count)>(StringComparer.Ordinal);
        var tokens = AnalyzeWithPositions(field, text);
        for (var i = 0; i < tokens.Count && i < maxTokens; i++)
        {
            var term = tokens[i].Term;
            var word = Encoding.UTF8.GetString(term);
            frequencies[word] = (term, frequencies.GetValueOrDefault(word).Count + 1);
        }
        foreach (var (term, count) in frequencies.Values)
        {
            if (!TermEncoding.IsShortened(term))
                AddCandidate(field, term, count, candidates);
        }
    }

    private void AddCandidate(string field, byte[] term, int frequency, List<MoreLikeThisCandidate> candidates)
    {
        var reader = Field(field);
        var terms = reader.Terms;
        long documentFrequency = 0;
        var termKey = TermEncoding.TermKey(term);
        if (terms is not null && terms.TryGet(termKey, out var header))
        {
            // Counted as the Lucene engine counts them: live entries only, while the postings still hold dead ones.
            documentFrequency = DeadIn(field) is { } dead ? CountLiveEntries(reader, dead, termKey, header) : PostingStore.DocumentFrequency(header);
        }
        candidates.Add(new MoreLikeThisCandidate(field, Encoding.UTF8.GetString(term), frequency, documentFrequency));
    }
}
