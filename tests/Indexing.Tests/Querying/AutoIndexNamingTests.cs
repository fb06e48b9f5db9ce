using System.Text;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.Querying;

/// <summary>
/// Auto indexes over awkward property names: their field names (and so the index names) read as the
/// query wrote them, never let two different paths share a field, and come back from the catalog.
/// </summary>
public sealed class AutoIndexNamingTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "folio-autonames-" + Guid.NewGuid().ToString("N"));
    private readonly DocumentStore _store = DocumentStore.Open(StorageOptions.InMemory());

    public void Dispose()
    {
        _store.Dispose();
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }

    [Theory]
    [InlineData("Name", "Name")]
    [InlineData("Lines[].Product", "Lines[].Product")]
    [InlineData("@metadata.@collection", "@metadata.@collection")]
    [InlineData("名前", "名前")]
    [InlineData("'Major Genre'", "'Major Genre'")]
    [InlineData("'a.b'", "'a.b'")]
    [InlineData("a.b", "a.b")]
    [InlineData("e-mail", "'e-mail'")]
    [InlineData("Address.e-mail", "Address.'e-mail'")]
    [InlineData("2nd", "'2nd'")]
    [InlineData("Lines.0", "Lines.'0'")]
    [InlineData("search(x)", "'search(x)'")]
    [InlineData("id()", "'id()'")]
    [InlineData("Price__num", "'Price__num'")]
    [InlineData("\"It's\"", "\"It's\"")]
    [InlineData("''", "''")]
    public void FieldName_WritesThePathAsAQueryWould(string path, string expected)
    {
        var name = AutoIndexNaming.FieldName(FieldPath.Parse(path));

        Assert.Equal(expected, name);
        Assert.Equal(FieldPath.Parse(path).Segments, FieldPath.Parse(name).Segments);
    }

    [Fact]
    public void FieldName_DifferentPaths_NeverShareAFieldOrPassForAReservedOne()
    {
        string[] names = ["a", "b", "a.b", "a b", "search(a)", "id()", "a__num", "id", "", "'", "\"", "\\", "[]", "a[]", "2", "名前", "🎬"];
        var paths = new List<FieldPath>();
        foreach (var first in names)
        {
            paths.Add(FieldPath.FromSegments([new PathSegment(first)]));
            paths.Add(FieldPath.FromSegments([new PathSegment(first, MarksArray: true)]));
            foreach (var second in names)
                paths.Add(FieldPath.FromSegments([new PathSegment(first), new PathSegment(second)]));
        }

        var taken = new Dictionary<string, FieldPath>(StringComparer.Ordinal);
        foreach (var path in paths)
        {
            var exact = AutoIndexNaming.FieldName(path);
            foreach (var field in new[] { exact, exact + IndexDefinition.NumericSuffix, AutoIndexNaming.SearchFieldName(path) })
            {
                Assert.True(taken.TryAdd(field, path), $"{path} and {taken.GetValueOrDefault(field)} share the field {field}.");
                Assert.NotEqual(IndexDefinition.IdField, field);
            }
        }
    }

    [Fact]
    public void IndexName_FieldsWithControlCharacters_WritesThemAsEscapes()
    {
        var tab = AutoIndexNaming.FieldName(FieldPath.FromSegments([new PathSegment("tab\there")]));
        var bell = AutoIndexNaming.FieldName(FieldPath.FromSegments([new PathSegment("\u0007")]));
        var written = AutoIndexNaming.FieldName(FieldPath.FromSegments([new PathSegment("tab\\there")]));

        Assert.Equal("Auto/Things/By'tab\\there'And'\\u0007'", AutoIndexNaming.IndexName("Things", [tab, bell]));
        Assert.Equal("Auto/Things/By'tab\\\\there'", AutoIndexNaming.IndexName("Things", [written]));
    }

    [Fact]
    public async Task Query_OnQuotedNames_NamesTheAutoIndexAsTheQueryWroteThem()
    {
        using var indexes = OpenIndexes();
        await Put("movies/1", """{"Major Genre":"Drama","Year":1999,"Plot Summary":"a late train"}""");

        using var result = await new QueryRunner(_store, indexes).RunAsync(
            "from Movies where 'Major Genre' = 'Drama' and Year > 1990 and search('Plot Summary', 'train')",
            new QueryOptions { WaitForNonStaleResults = true });

        Assert.Equal(1, result.TotalResults);
        Assert.Equal("Auto/Movies/By'Major Genre'AndSearch('Plot Summary')AndYear", result.IndexName);
    }

    [Fact]
    public async Task Reopen_AfterQueriesOnAwkwardNames_BringsTheAutoIndexesBackFromTheCatalog()
    {
        await Put("things/1", """{"a":{"b":1},"a.b":2,"e-mail":"x@y","Price__num":3}""");
        string name;
        using (var indexes = OpenIndexes())
        {
            var runner = new QueryRunner(_store, indexes);
            foreach (var rql in new[] { "from Things where a.b = 1", "from Things where 'a.b' = 2", "from Things where 'e-mail' = 'x@y' and 'Price__num' = 3" })
            {
                using var result = await runner.RunAsync(rql, new QueryOptions { WaitForNonStaleResults = true });
                Assert.Equal(1, result.TotalResults);
            }
            name = Assert.Single(indexes.All, i => i.Definition.Fields.Count == 4).Name;
            Assert.Equal("Auto/Things/By'Price__num'And'a.b'And'e-mail'Anda.b", name);
        }

        using (var reopened = OpenIndexes())
        {
            var index = reopened.Get(name);
            Assert.NotNull(index);
            Assert.Equal(["'Price__num'", "'a.b'", "'e-mail'", "a.b"], index.Definition.Fields.Keys.Order(StringComparer.Ordinal));
            using var result = await new QueryRunner(_store, reopened).RunAsync("from Things where 'e-mail' = 'x@y' and 'a.b' = 2 and a.b = 1", new QueryOptions { WaitForNonStaleResults = true });
            Assert.Equal(1, result.TotalResults);
            Assert.Equal(name, result.IndexName);
        }
    }

    private IndexStore OpenIndexes() => new(_store, _root, NullLoggerFactory.Instance, new IndexStoreOptions { InMemory = true });

    private Task Put(string id, string json) => _store.PutAsync(id, PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)));
}
