using Folio.Indexing.Analysis;
using Folio.Indexing.Definitions;
using Folio.Indexing.Tests.Support;

namespace Folio.Indexing.Tests.Analysis;

/// <summary>
/// A field may name an analyzer (<c>"Analyzer"</c>): Lucene's language analyzers run on both search engines (on Folio's
/// through the TokenStream adapter), so a sentence is found by another inflection of its words and its stop words
/// match nothing, on either engine.
/// </summary>
public sealed class LanguageAnalyzerTests
{
    // Per analyzer: a sentence, a query made of other forms of its words (stem matches), and a stop word of the language.
    public static TheoryData<string, string, string, string, string> Sentences => new()
    {
        { "Folio", "English", "The runners were running quickly through the gardens", "runner garden", "the" },
        { "Lucene", "English", "The runners were running quickly through the gardens", "runner garden", "the" },
        { "Folio", "French", "Les enfants jouaient dans les jardins", "enfant jardin", "les" },
        { "Lucene", "French", "Les enfants jouaient dans les jardins", "enfant jardin", "les" },
        { "Folio", "German", "Die Kinder spielten in den Gärten", "kind garten", "die" },
        { "Lucene", "German", "Die Kinder spielten in den Gärten", "kind garten", "die" },
        { "Folio", "Spanish", "Los gatitos duermen en las ventanas blancas", "ventana blanca", "los" },
        { "Lucene", "Spanish", "Los gatitos duermen en las ventanas blancas", "ventana blanca", "los" },
        { "Folio", "Italian", "I bambini giocavano nei giardini", "bambino giardino", "nei" },
        { "Lucene", "Italian", "I bambini giocavano nei giardini", "bambino giardino", "nei" },
        { "Folio", "Portuguese", "As crianças brincavam nos jardins", "criança jardim", "nos" },
        { "Lucene", "Portuguese", "As crianças brincavam nos jardins", "criança jardim", "nos" },
        { "Folio", "Dutch", "De boeken liggen op de tafels", "boek tafel", "de" },
        { "Lucene", "Dutch", "De boeken liggen op de tafels", "boek tafel", "de" },
        { "Folio", "Russian", "Дети играли в садах", "дет сад", "в" },
        { "Lucene", "Russian", "Дети играли в садах", "дет сад", "в" },
        { "Folio", "Swedish", "Barnen lekte i trädgårdarna", "barn trädgård", "i" },
        { "Lucene", "Swedish", "Barnen lekte i trädgårdarna", "barn trädgård", "i" },
        { "Folio", "Czech", "Děti si hrály v zahradách", "dět zahrada", "si" },
        { "Lucene", "Czech", "Děti si hrály v zahradách", "dět zahrada", "si" },
    };

    [Theory]
    [MemberData(nameof(Sentences))]
    public async Task Search_LanguageAnalyzer_MatchesByStem_AndNotByStopWord(string engine, string analyzer, string sentence, string otherForms, string stopWord)
    {
        using var db = new InMemoryDatabase();
        var definition = """{"Name":"Texts/ByBody","Collections":["Texts"],"SearchEngine":"ENGINE","Fields":{"Body":{"Search":true,"Analyzer":"ANALYZER"}}}""";
        db.Indexes.Put([InMemoryDatabase.Definition(definition.Replace("ENGINE", engine, StringComparison.Ordinal).Replace("ANALYZER", analyzer, StringComparison.Ordinal))]);
        await db.PutAsync("texts/1", $$"""{"Body":"{{sentence}}"}""");
        await db.PutAsync("texts/2", """{"Body":"zzz qqq"}""");

        foreach (var form in otherForms.Split(' '))
        {
            var (stems, _) = await db.QueryAsync($"from index 'Texts/ByBody' where search(Body, '{form}')");
            Assert.True(stems.Count == 1 && stems[0].Contains("texts/1", StringComparison.Ordinal), $"'{form}' found {stems.Count} texts in '{sentence}'");
        }
        var (stops, _) = await db.QueryAsync($"from index 'Texts/ByBody' where search(Body, '{stopWord}')");
        Assert.Empty(stops);
    }

    [Fact]
    public void Definition_UnknownAnalyzer_IsRefusedListingTheKnownOnes()
    {
        var problem = Assert.Throws<IndexDefinitionException>(() => InMemoryDatabase.Definition("""{"Name":"T","Collections":["Texts"],"Fields":{"Body":{"Search":true,"Analyzer":"Klingon"}}}"""));
        Assert.Contains("Klingon", problem.Message, StringComparison.Ordinal);
        foreach (var name in new[] { "Folio", "Exact", "Standard", "English", "French", "CJK" })
            Assert.Contains(name, problem.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Definition_Analyzer_RoundTripsCanonically()
    {
        var definition = InMemoryDatabase.Definition("""{"Name":"T","Collections":["Texts"],"Fields":{"Body":{"Search":true,"Analyzer":"french"}}}""");
        Assert.Equal("French", definition.Fields["Body"].Analyzer);
        Assert.Contains("\"Analyzer\":\"French\"", IndexDefinitionJson.ToJson(definition), StringComparison.Ordinal);
    }

    [Fact]
    public void Adapter_GivesPositionsWithStopWordGaps()
    {
        var tokens = NamedAnalyzers.Get("English").AnalyzeToList("the quick foxes");
        Assert.Equal(["quick", "fox"], tokens.Select(t => t.Term));
        Assert.Equal([1, 2], tokens.Select(t => t.Position));
    }
}
