using System.Text.Json;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;
using Folio.Indexing.Tests.Support;

namespace Folio.Indexing.Tests.Querying;

/// <summary><c>lucene(field, 'text')</c> through RQL on each search engine over a real index.</summary>
public sealed class LuceneQueryTests
{
    public static TheoryData<string> Engines => new() { "Folio", "Lucene" };

    private static async Task<InMemoryDatabase> OpenAsync(string engine)
    {
        var db = new InMemoryDatabase(engine);
        await db.PutAsync("notes/1", """{"Notes":"She speaks fluent French and some German","Name":"Ernst Handel","Age":30,"Born":"1996-03-01T10:00:00","Code":"01234","@metadata":{"@collection":"Notes"}}""");
        await db.PutAsync("notes/2", """{"Notes":"French is spoken fluently by him, not fluent in Italian","Name":"Ernst Handle","Age":25,"Born":"2001-07-15T08:30:00","Code":"1234","@metadata":{"@collection":"Notes"}}""");
        await db.PutAsync("notes/3", """{"Notes":"He is fluent in writing and reading technical French","Name":"Anna Handel","Age":41,"@metadata":{"@collection":"Notes"}}""");
        await db.PutAsync("notes/4", """{"Notes":"Bonjour: a french greeting, fluent","Name":"Bob","Age":19,"@metadata":{"@collection":"Notes"}}""");
        await db.PutAsync("notes/5", """{"Notes":"The handle of the door was broken","Name":"Ernts Hnadel","Age":35,"@metadata":{"@collection":"Notes"}}""");
        return db;
    }

    private static async Task<string[]> IdsAsync(InMemoryDatabase db, string rql, string? parameters = null)
    {
        var (rows, _) = await db.QueryAsync(rql, parameters);
        return [.. rows.Select(r => JsonDocument.Parse(r).RootElement.GetProperty("@metadata").GetProperty("@id").GetString()!).Order(StringComparer.Ordinal)];
    }

    [Theory]
    [InlineData("Notes", "french", new[] { "notes/1", "notes/2", "notes/3", "notes/4" })]
    [InlineData("Notes", "french AND NOT german", new[] { "notes/2", "notes/3", "notes/4" })]
    [InlineData("Notes", "+fluent -italian", new[] { "notes/1", "notes/3", "notes/4" })]
    [InlineData("Notes", "german OR italian", new[] { "notes/1", "notes/2" })]
    [InlineData("Notes", "(german OR italian) && spoken", new[] { "notes/2" })]
    [InlineData("Notes", "\"technical french\"", new[] { "notes/3" })]
    [InlineData("Notes", "\"fluent french\"~1", new[] { "notes/1" })]
    [InlineData("Notes", "handle^2 bonjour", new[] { "notes/4", "notes/5" })]
    [InlineData("Notes", "doo*", new[] { "notes/5" })]
    [InlineData("Notes", "d?o*", new[] { "notes/5" })]
    [InlineData("Notes", "itallian~", new[] { "notes/2" })]
    [InlineData("Notes", "Name:bob OR german", new[] { "notes/1", "notes/4" })]
    [InlineData("Notes", "*:* -french", new[] { "notes/5" })]
    [InlineData("Age", "[25 TO 35}", new[] { "notes/1", "notes/2" })]
    [InlineData("Age", "{30 TO *]", new[] { "notes/3", "notes/5" })]
    [InlineData("Age", "30", new[] { "notes/1" })]
    [InlineData("Name", "ernst", new[] { "notes/1", "notes/2" })]
    [InlineData("Born", "[1990-01-01T00:00:00 TO 2000-01-01T00:00:00}", new[] { "notes/1" })]
    [InlineData("Born", "{2000-01-01 TO *]", new[] { "notes/2" })]
    public async Task Lucene_MatchesWhatTheSyntaxAsks_OnBothEngines(string field, string text, string[] expected)
    {
        foreach (var engine in Engines)
        {
            using var db = await OpenAsync(engine);
            Assert.Equal(expected, await IdsAsync(db, $"from Notes where lucene({field}, '{text.Replace("'", "\\'", StringComparison.Ordinal)}')"));
            Assert.Equal(expected, await IdsAsync(db, $"from Notes where lucene({field}, $text)", JsonSerializer.Serialize(new { text })));
        }
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Lucene_ComparesWholeValues_WhenExact(string engine)
    {
        using var db = await OpenAsync(engine);
        Assert.Equal(["notes/1"], await IdsAsync(db, "from Notes where lucene(Name, '\"Ernst Handel\"', true)"));
        Assert.Empty(await IdsAsync(db, "from Notes where lucene(Name, 'ernst', true)"));
        Assert.Equal(["notes/1", "notes/2"], await IdsAsync(db, "from Notes where lucene(Name, 'Ernst*', true)"));
        // As written: case counts, in a wildcard's pattern too, and a value of digits stays text.
        Assert.Empty(await IdsAsync(db, "from Notes where lucene(Name, '\"ernst handel\"', true)"));
        Assert.Empty(await IdsAsync(db, "from Notes where lucene(Name, 'ernst*', true)"));
        Assert.Equal(["notes/1", "notes/2"], await IdsAsync(db, "from Notes where lucene(Name, 'Ern?t*', true)"));
        Assert.Equal(["notes/1"], await IdsAsync(db, "from Notes where lucene(Code, '01234', true)"));
    }

    [Fact]
    public async Task Lucene_IsRefused_WhenAParameterNamesAFieldTheAutoIndexLacks()
    {
        using var db = await OpenAsync("Folio");
        var error = await Assert.ThrowsAsync<QueryException>(() => db.QueryAsync("from Notes where lucene(Name, $q)", """{"q":"Colour:red"}"""));
        Assert.Contains("has no field 'Colour'", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("from Notes where lucene(Notes, 'french AND')", 42)]
    [InlineData("from Notes where lucene(Notes, '(french')", 39)]
    [InlineData("from Notes where lucene(Notes, 'french', 'yes')", 41)]
    [InlineData("from Notes where exact(lucene(Notes, 'french'))", 23)]
    public async Task Lucene_IsRefusedNamingThePosition_WhenTheTextIsBad(string rql, int position)
    {
        using var db = await OpenAsync("Folio");
        var error = await Assert.ThrowsAsync<RqlParseException>(() => db.QueryAsync(rql));
        Assert.Equal(position, error.Position);
    }
}
