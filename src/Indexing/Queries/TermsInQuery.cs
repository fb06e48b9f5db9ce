using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>Entries whose field equals any of several values.</summary>
public sealed class TermsInQuery(string field, IReadOnlyList<FieldValue> values) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The values.</summary>
    public IReadOnlyList<FieldValue> Values { get; } = values;

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher)
    {
        var children = new DocIdIterator[Values.Count];
        for (var i = 0; i < Values.Count; i++)
            children[i] = new TermQuery(Field, Values[i]).CreateIterator(searcher);
        return children.Length switch
        {
            0 => new EmptyIterator(),
            1 => children[0],
            _ => new OrIterator(children),
        };
    }
}
