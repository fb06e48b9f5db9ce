using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// A case-folding exact field remembers how its values were spelled (spelling variants in the term dictionary,
/// counted per variant) through adds, replacements and deletes, in one batch and across batches, while its terms,
/// doc values and queries stay folded.
/// </summary>
public sealed class SpellingTests : IDisposable
{
    private readonly IEngineIndex _index = FolioSearchEngine.Instance.Open(StorageOptions.InMemory(), new IndexSchema()
        .Add("City", FieldKind.Exact)
        .Add("Code", new FieldOptions(FieldKind.Exact, CaseSensitive: true)));

    public void Dispose() => _index.Dispose();

    private void Batch(Action<IEngineBatch> write)
    {
        using var batch = _index.BeginBatch();
        write(batch);
        batch.Commit(1);
    }

    /// <summary>Each value of the field with its count and display spelling, as a facet reads them.</summary>
    private List<string> Values(string field)
    {
        using var searcher = _index.OpenSearcher();
        var collector = new TermFacetCollector(field);
        searcher.Collect(MatchAllQuery.Instance, collector);
        var values = new List<string>();
        foreach (var term in collector.Terms.OrderBy(t => t.Value.Text, StringComparer.Ordinal))
            values.Add($"{collector.Spelling(term) ?? term.Value.Text}:{term.Count}");
        return values;
    }

    [Fact]
    public void Spelling_IsTheMostFrequent_AcrossBatches()
    {
        Batch(b =>
        {
            b.Add(new IndexEntry("1").Add("City", "DFW"));
            b.Add(new IndexEntry("2").Add("City", "DFW"));
            b.Add(new IndexEntry("3").Add("City", "dfw"));
        });
        Assert.Equal(["DFW:3"], Values("City"));
        Batch(b =>
        {
            b.Add(new IndexEntry("4").Add("City", "dfw"));
            b.Add(new IndexEntry("5").Add("City", "dfw"));
        });
        Assert.Equal(["dfw:5"], Values("City"));
        Batch(b =>
        {
            b.Delete("4");
            b.Add(new IndexEntry("5").Add("City", "Dfw"));
        });
        Assert.Equal(["DFW:4"], Values("City"));
    }

    [Fact]
    public void Spelling_FollowsEntriesReplacedAndDeleted_WithinOneBatch()
    {
        Batch(b =>
        {
            b.Add(new IndexEntry("1").Add("City", "Paris"));
            b.Add(new IndexEntry("1").Add("City", "PARIS"));
            b.Add(new IndexEntry("2").Add("City", "Paris").Add("City", "paris").Add("City", "PARIS"));
            b.Add(new IndexEntry("3").Add("City", "Paris"));
            b.Delete("3");
        });
        // Entry 1 spells it PARIS, entry 2 first spells it Paris; the tie goes to PARIS, first in byte order.
        Assert.Equal(["PARIS:2"], Values("City"));
        Batch(b => b.Delete("1"));
        Assert.Equal(["Paris:1"], Values("City"));
        Batch(b => b.Delete("2"));
        Assert.Empty(Values("City"));
        using var searcher = _index.OpenSearcher();
        Assert.Equal(0, searcher.Count(new TermQuery("City", FieldValue.From("paris"))));
        // No spelling outlives its entries in the term dictionary, not even one added and taken back in one batch.
        Assert.Equal(0, ((IndexSearcher)searcher).Transaction.OpenTree(SearchIndex.TermIdsTree("City"))!.Count);
    }

    [Fact]
    public void Spelling_LeavesTermsDocValuesAndCaseSensitiveFieldsAsTheyWere()
    {
        Batch(b =>
        {
            b.Add(new IndexEntry("1").Add("City", "Zürich").Add("Code", "AbC"));
            b.Add(new IndexEntry("2").Add("City", "ZÜRICH").Add("City", "Oslo").Add("Code", "abc"));
        });
        using var searcher = _index.OpenSearcher();
        Assert.Equal(2, searcher.Count(new TermQuery("City", FieldValue.From("zürich"))));
        Assert.Equal([FieldValue.From("zürich")], searcher.GetValues("City", 0));
        // The two spellings tie, and ZÜRICH comes first in byte order.
        Assert.Equal(["Oslo:1", "ZÜRICH:2"], Values("City"));
        Assert.Equal(["AbC:1", "abc:1"], Values("Code"));
    }

    [Fact]
    public void Spelling_IsTheFoldedValue_WhenTheValueIsTooLongToRemember()
    {
        var value = new string('X', 200);
        Batch(b => b.Add(new IndexEntry("1").Add("City", value)));
        Assert.Equal([value.ToLowerInvariant() + ":1"], Values("City"));
    }
}
