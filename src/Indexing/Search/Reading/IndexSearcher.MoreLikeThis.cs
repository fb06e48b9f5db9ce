using System.Text;
using Folio.Indexing.Postings;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Search;

// More like this on Folio's engine: the source entry's terms come from a walk of each full-text field's terms (postings
// that hold the entry) and from an exact field's values (a term each), their document frequencies from the postings'
// headers; the query is the union of the chosen terms' scorers, without the source document's entries.
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
                    AddStoredTerms(field, entryId, query.Options, candidates);
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

    /// <summary>
    /// Counts the terms of full-text <paramref name="field"/> in the entry (those of its first <see cref="MoreLikeThisOptions.MaximumNumberOfTokensParsed"/>
    /// tokens), found by walking the field's terms: an entry keeps no list of its own terms, as Lucene's keeps none without
    /// term vectors. A term too rare to be chosen anyway (<paramref name="options"/>' least document frequency) is passed
    /// over by its header alone, unless the entry is longer than that: then every term's positions
    /// are read to find which tokens come first.
    /// </summary>
    private void AddStoredTerms(string field, long entryId, MoreLikeThisOptions options, List<MoreLikeThisCandidate> candidates)
    {
        var reader = Field(field);
        if (reader.Terms is null)
            return;
        var maxTokens = options.MaximumNumberOfTokensParsed;
        if (maxTokens <= 0)
            return;
        var length = reader.Norms is { } norms ? new NormsColumn(norms, _scratch.RentBuffer(NormsColumn.CacheBytes)).Get(entryId) : 0;
        if (length == 0)
            return;
        var cut = length >= maxTokens || length >= ushort.MaxValue;
        var found = new List<(byte[] Term, int Frequency, List<int>? Positions)>();
        var cursor = reader.Terms.CreateCursor();
        var chunks = reader.Terms.CreateCursor();
        var chunkKey = new byte[TermEncoding.MaxTermKeyLength(TermEncoding.MaxTermBytes) + 8];
        var termBuffer = new byte[64];
        var walked = 0;
        var more = cursor.First();
        while (more)
        {
            if ((++walked & CancellationStride) == 0)
                Guard.Check();
            var key = cursor.Key;
            if (key.Length > termBuffer.Length)
                termBuffer = new byte[key.Length];
            if (!TermEncoding.TryDecodeKey(key, termBuffer, out var termLength, out var termKeyLength) || termKeyLength != key.Length)
                throw new Folio.Storage.CorruptionException($"The terms of field '{field}' hold a key that is not a term where a term's key belongs.");
            var header = cursor.Value;
            var chunked = PostingStore.IsChunked(header);
            var frequency = 0;
            // A term too rare to be chosen (or shortened, keeping too little of its word to be looked for) is passed over by
            // its header alone, unless every token counts towards the cut.
            if (cut || (PostingStore.DocumentFrequency(header) >= options.MinimumDocumentFrequency && !TermEncoding.IsShortened(termBuffer.AsSpan(0, termLength))))
                frequency = FrequencyOfEntry(reader, key, header, chunked, entryId, chunks, chunkKey);
            if (frequency > 0)
            {
                List<int>? positions = null;
                if (cut && reader.Positions is { } positionsTree)
                {
                    positions = [];
                    new TermPositions(reader.Terms, reader.Sealed, positionsTree, key.ToArray(), header).Read(entryId, positions);
                }
                found.Add((termBuffer.AsSpan(0, termLength).ToArray(), frequency, positions));
            }
            if (!chunked)
            {
                more = cursor.MoveNext();
                continue;
            }
            // Past the term's chunks, whose keys follow its own, to the next term.
            key.CopyTo(chunkKey);
            more = cursor.Seek(TermEncoding.AfterTerm(chunkKey.AsSpan(0, key.Length)));
        }
        var (cutoff, atCutoff) = cut ? TokenPositionCutoff(found, maxTokens) : (int.MaxValue, 0);
        foreach (var (term, frequency, positions) in found)
        {
            var counted = frequency;
            if (positions is not null)
            {
                counted = 0;
                foreach (var position in positions)
                {
                    // Tokens stacked at the cutoff's position count until the limit is reached, as reading the first
                    // tokens in position order would count them.
                    if (position < cutoff || (position == cutoff && atCutoff-- > 0))
                        counted++;
                }
            }
            if (counted > 0 && !TermEncoding.IsShortened(term))
                AddCandidate(field, term, counted, candidates);
        }
    }

    /// <summary>
    /// The frequency of the term whose key and header these are in the entry (0 without it), from the one block of its
    /// postings that could hold the entry. The entry is live (a query matched it), so dead ids need no skipping.
    /// </summary>
    private static int FrequencyOfEntry(FieldReader reader, ReadOnlySpan<byte> termKey, ReadOnlySpan<byte> header, bool chunked, long entryId,
        Folio.Storage.Trees.TreeCursor chunks, byte[] chunkKey)
    {
        if (!chunked)
            return PostingsDecoder.FrequencyOf(header, entryId);
        termKey.CopyTo(chunkKey);
        System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(chunkKey.AsSpan(termKey.Length), entryId);
        if (!chunks.SeekLastAtOrBefore(chunkKey.AsSpan(0, termKey.Length + 8)) || !PostingStore.IsChunkOf(chunks.Key, termKey))
            return 0;
        Span<byte> sealKey = stackalloc byte[8];
        return PostingsDecoder.FrequencyOf(PostingStore.Chunk(reader.Sealed, chunks.Value, sealKey), entryId);
    }

    /// <summary>
    /// The position of the entry's <paramref name="maxTokens"/>-th token, from every term's positions in it, and how many
    /// tokens at that position are among the first <paramref name="maxTokens"/>; no cutoff when the entry has no more tokens.
    /// </summary>
    private static (int Cutoff, int AtCutoff) TokenPositionCutoff(List<(byte[] Term, int Frequency, List<int>? Positions)> found, int maxTokens)
    {
        var all = new List<int>();
        foreach (var (_, _, positions) in found)
        {
            if (positions is not null)
                all.AddRange(positions);
        }
        if (all.Count <= maxTokens)
            return (int.MaxValue, 0);
        all.Sort();
        var cutoff = all[maxTokens - 1];
        var before = all.BinarySearch(cutoff);
        while (before > 0 && all[before - 1] == cutoff)
            before--;
        return (cutoff, maxTokens - before);
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
