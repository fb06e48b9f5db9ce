using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Util;
using Lucene.Net.Util.Automaton;
using LuceneQuery = Lucene.Net.Search.Query;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// Rewrites a multi-term query (wildcard, prefix, range, regular expression) into the set of documents of the terms
/// it expands to, checking the query's guard (its budget, its client, its memory limit) as it walks: Lucene's own rewrites walk the whole term list
/// without looking at anything, so a leading wildcard on a field of millions of terms would outlive the query's
/// time budget and its client. The check comes every <see cref="Collectors.MatchWalk.CancellationStride"/> + 1 terms
/// or documents, as in Folio's engine.
/// </summary>
internal sealed class CancellableTermsRewrite : MultiTermQuery.RewriteMethod
{
    private readonly QueryGuard _guard;

    private CancellableTermsRewrite(QueryGuard guard)
    {
        _guard = guard;
    }

    /// <summary>Gives <paramref name="query"/> this rewrite when its searcher's guard can stop it; returns it.</summary>
    public static T Apply<T>(T query, QueryGuard guard)
        where T : MultiTermQuery
    {
        if (guard.CanStop)
            query.MultiTermRewriteMethod = new CancellableTermsRewrite(guard);
        return query;
    }

    public override LuceneQuery Rewrite(IndexReader reader, MultiTermQuery query) =>
        new ConstantScoreQuery(new TermsFilter(this, query)) { Boost = query.Boost };

    private sealed class TermsFilter(CancellableTermsRewrite rewrite, MultiTermQuery query) : Filter
    {
        public override DocIdSet? GetDocIdSet(AtomicReaderContext context, IBits acceptDocs)
        {
            if (context.AtomicReader.GetTerms(query.Field) is not { } terms)
                return null;
            // The query filters a walk of the field's terms (seeking past the ones it cannot match): the walk itself is
            // what is watched, so terms it passes over count as much as the ones it keeps. An automaton's walk is the
            // codec's intersection, which returns only matches; the dictionary blocks it reads are watched under the scope.
            using var watch = TermsDictionaryWatch.Enter(rewrite._guard);
            var walk = rewrite.GetTermsEnum(query, new WatchedTerms(terms, rewrite._guard), new AttributeSource());
            FixedBitSet? matches = null;
            DocsEnum? docs = null;
            var walked = 0;
            while (walk.MoveNext())
            {
                docs = walk.Docs(acceptDocs, docs, DocsFlags.NONE);
                matches ??= new FixedBitSet(context.AtomicReader.MaxDoc);
                int doc;
                while ((doc = docs.NextDoc()) != DocIdSetIterator.NO_MORE_DOCS)
                {
                    matches.Set(doc);
                    if ((++walked & Collectors.MatchWalk.CancellationStride) == 0)
                        rewrite._guard.Check();
                }
            }
            return matches;
        }
    }

    private sealed class WatchedTerms(Terms terms, QueryGuard guard) : FilterAtomicReader.FilterTerms(terms)
    {
        public override TermsEnum GetEnumerator() => new WatchedTermsEnum(m_input.GetEnumerator(), guard);

        // The codec's intersection skips the blocks an automaton cannot enter, where the base class would step through
        // every term; its reads of the blocks it does enter are watched (WatchedIndexInput), its answers here.
        public override TermsEnum Intersect(CompiledAutomaton compiled, BytesRef startTerm) =>
            new WatchedTermsEnum(m_input.Intersect(compiled, startTerm), guard);
    }

    private sealed class WatchedTermsEnum(TermsEnum terms, QueryGuard guard) : FilterAtomicReader.FilterTermsEnum(terms)
    {
        private int _steps;

        public override bool MoveNext()
        {
            Step();
            return base.MoveNext();
        }

        public override SeekStatus SeekCeil(BytesRef text)
        {
            Step();
            return base.SeekCeil(text);
        }

        private void Step()
        {
            if ((++_steps & Collectors.MatchWalk.CancellationStride) == 0)
                guard.Check();
        }
    }
}
