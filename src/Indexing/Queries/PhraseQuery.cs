using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>Entries whose full-text field has the analyzed terms of a phrase at consecutive positions (stop-word gaps kept).</summary>
public sealed class PhraseQuery(string field, string phrase) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The phrase.</summary>
    public string Phrase { get; } = phrase;

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher)
    {
        var tokens = searcher.AnalyzeWithPositions(Field, Phrase);
        if (tokens.Count == 0)
            return new EmptyIterator();
        var iterators = new DocIdIterator[tokens.Count];
        for (var i = 0; i < tokens.Count; i++)
        {
            var scorer = searcher.Scorer(Field, tokens[i].Term);
            if (scorer is null)
                return new EmptyIterator();
            iterators[i] = scorer;
        }
        return tokens.Count == 1 ? iterators[0] : new PhraseIterator(searcher, Field, tokens, new AndIterator(iterators));
    }
}
