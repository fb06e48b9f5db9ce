using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.Querying;

/// <summary>
/// The exact bytes of facet answers (first captured from the runner before facets were collected in one pass):
/// arrays counted once per distinct value, explicit nulls counted as the value null (missing fields counted apart,
/// outside the values), text in the spelling the data uses most where the field folds case, numbers on auto
/// indexes, ranges with open and closed bounds, and several facets of one query.
/// </summary>
public sealed class FacetAnswerTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "folio-facets-" + Guid.NewGuid().ToString("N"));
    private readonly DocumentStore _store = DocumentStore.Open(StorageOptions.InMemory());
    private readonly IndexStore _indexes;
    private readonly QueryRunner _runner;

    public FacetAnswerTests()
    {
        _indexes = new IndexStore(_store, _root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true });
        _runner = new QueryRunner(_store, _indexes);
    }

    public void Dispose()
    {
        _indexes.Dispose();
        _store.Dispose();
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }

    private async Task SeedAsync()
    {
        string[] products =
        [
            """{"Brand":"Acme","Tags":["a","b","a"],"Price":10,"Color":null}""",
            """{"Brand":"acme","Tags":["b"],"Price":250.5,"Color":"Red"}""",
            """{"Brand":"Zeta","Tags":[],"Price":600,"Color":"red"}""",
            """{"Brand":null,"Price":"n/a","Color":"Blue"}""",
            """{"Tags":["c",null,"b"],"Price":0,"Color":{"Name":"Green"}}""",
            """{"Brand":"Zeta","Tags":"a","Price":-3.5}""",
        ];
        for (var i = 0; i < products.Length; i++)
            await _store.PutAsync($"products/{i + 1}", PreparedDocument.Parse(Encoding.UTF8.GetBytes(products[i])));
    }

    private async Task<(long Total, List<string> Facets)> FacetsAsync(string rql)
    {
        using var result = await _runner.RunAsync(rql, new QueryOptions { WaitForNonStaleResults = true });
        Assert.Empty(result.Results);
        var facets = new List<string>();
        foreach (var facet in result.Facets)
            facets.Add(ToJson(facet));
        return (result.TotalResults, facets);
    }

    /// <summary>The facet in the server's answer shape, written with the default escaping the captured bytes used.</summary>
    private static string ToJson(FacetResult facet)
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            writer.WriteString("Name", facet.Name);
            writer.WriteStartArray("Values");
            foreach (var value in facet.Values)
            {
                writer.WriteStartObject();
                writer.WriteString("Range", value.Range);
                writer.WriteNumber("Count", value.Count);
                writer.WriteEndObject();
            }
            writer.WriteEndArray();
            writer.WriteEndObject();
        }
        return Encoding.UTF8.GetString(stream.ToArray());
    }

    [Fact]
    public async Task RunAsync_AnswersTermAndRangeFacetsByteForByte_OnAnAutoIndex()
    {
        await SeedAsync();
        var (total, facets) = await FacetsAsync("from Products select facet(Brand), facet(Tags), facet(Color), facet(Price < 0, Price between 0 and 250.5, Price > 250.5), facet(Price >= 'm')");
        Assert.Equal(6, total);
        Assert.Equal(
        [
            """{"Name":"Brand","Values":[{"Range":"Acme","Count":2},{"Range":"Zeta","Count":2},{"Range":null,"Count":1}]}""",
            """{"Name":"Tags","Values":[{"Range":"b","Count":3},{"Range":"a","Count":2},{"Range":null,"Count":1},{"Range":"c","Count":1}]}""",
            """{"Name":"Color","Values":[{"Range":"Red","Count":2},{"Range":null,"Count":1},{"Range":"Blue","Count":1}]}""",
            """{"Name":"Price","Values":[{"Range":"Price \u003C 0","Count":1},{"Range":"Price between 0 and 250.5","Count":3},{"Range":"Price \u003E 250.5","Count":1}]}""",
            """{"Name":"Price","Values":[{"Range":"Price \u003E= \u0027m\u0027","Count":1}]}""",
        ], facets);
    }

    [Fact]
    public async Task RunAsync_AnswersFacetsOfTheMatchesOnly_WhenTheQueryHasAWhere()
    {
        await SeedAsync();
        var (total, facets) = await FacetsAsync("from Products where Price >= 0 select facet(Brand), facet(Tags), facet(Price < 100, Price >= 100)");
        Assert.Equal(4, total);
        Assert.Equal(
        [
            """{"Name":"Brand","Values":[{"Range":"Acme","Count":2},{"Range":"Zeta","Count":1}]}""",
            """{"Name":"Tags","Values":[{"Range":"b","Count":3},{"Range":null,"Count":1},{"Range":"a","Count":1},{"Range":"c","Count":1}]}""",
            """{"Name":"Price","Values":[{"Range":"Price \u003C 100","Count":2},{"Range":"Price \u003E= 100","Count":2}]}""",
        ], facets);
    }

    [Fact]
    public async Task RunAsync_AnswersFacetsByteForByte_OnAStaticIndexWithTypedFields()
    {
        await SeedAsync();
        _indexes.Put([IndexDefinitionJson.Parse(System.Text.Json.JsonDocument.Parse(
            """{"Name":"Products/Facets","Collections":["Products"],"Fields":{"Tags":{"Path":"Tags[]"},"Price":{"Path":"Price","Type":"Double"},"Brand":{"Path":"Brand","CaseSensitive":true}}}""").RootElement)]);
        var (total, facets) = await FacetsAsync("from index 'Products/Facets' select facet(Tags), facet(Brand), facet(Price), facet(Price < 10, Price between 10 and 600, Price > 600)");
        Assert.Equal(5, total);
        Assert.Equal(
        [
            """{"Name":"Tags","Values":[{"Range":"b","Count":3},{"Range":"a","Count":2},{"Range":null,"Count":1},{"Range":"c","Count":1}]}""",
            """{"Name":"Brand","Values":[{"Range":"Zeta","Count":2},{"Range":"Acme","Count":1},{"Range":"acme","Count":1}]}""",
            """{"Name":"Price","Values":[{"Range":"-3.5","Count":1},{"Range":"0","Count":1},{"Range":"10","Count":1},{"Range":"250.5","Count":1},{"Range":"600","Count":1}]}""",
            """{"Name":"Price","Values":[{"Range":"Price \u003C 10","Count":2},{"Range":"Price between 10 and 600","Count":3},{"Range":"Price \u003E 600","Count":0}]}""",
        ], facets);
    }
}
