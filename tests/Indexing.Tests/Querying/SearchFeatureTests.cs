using System.Text.Json;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;
using Folio.Indexing.Tests.Support;

namespace Folio.Indexing.Tests.Querying;

/// <summary>
/// Fuzzy words, phrases within a slop and boosts, through RQL, on each search engine over a real index: both engines
/// must find the same documents (and, where the data leaves no near-ties, rank them alike).
/// </summary>
public class SearchFeatureTests
{
    private static readonly JsonSerializerOptions Readable = new() { Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static TheoryData<string> Engines => new() { "Folio", "Lucene" };

    private static async Task<InMemoryDatabase> OpenAsync(string engine)
    {
        var db = new InMemoryDatabase(engine);
        await db.PutAsync("notes/1", """{"Notes":"She speaks fluent French and some German","Name":"Ernst Handel","@metadata":{"@collection":"Notes"}}""");
        await db.PutAsync("notes/2", """{"Notes":"French is spoken fluently by him, not fluent in Italian","Name":"Ernst Handle","@metadata":{"@collection":"Notes"}}""");
        await db.PutAsync("notes/3", """{"Notes":"He is fluent in writing and reading technical French","Name":"Anna Handel","@metadata":{"@collection":"Notes"}}""");
        await db.PutAsync("notes/4", """{"Notes":"Bonjour: a french greeting, fluent","Name":"Bob","@metadata":{"@collection":"Notes"}}""");
        await db.PutAsync("notes/5", """{"Notes":"The handle of the door was broken","Name":"Ernts Hnadel","@metadata":{"@collection":"Notes"}}""");
        return db;
    }

    private static async Task<List<string>> IdsAsync(InMemoryDatabase db, string rql)
    {
        var (rows, _) = await db.QueryAsync(rql);
        return rows.Select(r => JsonDocument.Parse(r).RootElement.GetProperty("@metadata").TryGetProperty("@id", out var id) ? id.GetString()! : r).ToList();
    }

    private static async Task<List<string>> SortedIdsAsync(InMemoryDatabase db, string rql) => (await IdsAsync(db, rql)).Order(StringComparer.Ordinal).ToList();

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Search_MatchesTermsWithinEdits_WhenAWordIsFuzzy(string engine)
    {
        using var db = await OpenAsync(engine);
        // frnech is a transposition (1 edit) away from french.
        Assert.Equal(["notes/1", "notes/2", "notes/3", "notes/4"], await SortedIdsAsync(db, "from Notes where search(Notes, 'frnech~')"));
        Assert.Equal(["notes/1", "notes/2", "notes/3", "notes/4"], await SortedIdsAsync(db, "from Notes where search(Notes, 'frnech~1')"));
        Assert.Empty(await IdsAsync(db, "from Notes where search(Notes, 'frnech~0')"));
        Assert.Empty(await IdsAsync(db, "from Notes where search(Notes, 'frnech')"));
        // handel~1 reaches handl (handle, stemmed) one deletion away, but hndle is two edits from it.
        Assert.Equal(["notes/5"], await SortedIdsAsync(db, "from Notes where search(Notes, 'handel~1')"));
        Assert.Empty(await IdsAsync(db, "from Notes where search(Notes, 'hndle~1')"));
        Assert.Equal(["notes/5"], await SortedIdsAsync(db, "from Notes where search(Notes, 'hndle~')"));
    }

    [Fact]
    public async Task Search_ExpandsAFuzzyWordToTheSameFiftyTerms_OnBothEngines()
    {
        // 4 letters over an alphabet of 4: hundreds of words within 2 edits of 'abca', more than the 50 a fuzzy word expands to.
        var words = new List<string>();
        const string letters = "abcd";
        foreach (var a in letters)
        {
            foreach (var b in letters)
            {
                foreach (var c in letters)
                {
                    foreach (var d in letters)
                        words.Add($"{a}{b}{c}{d}");
                }
            }
        }
        words.AddRange(["abc", "abcab", "bacad", "ab", "a"]);
        var answers = new List<List<string>>();
        foreach (var engine in new[] { "Folio", "Lucene" })
        {
            using var db = new InMemoryDatabase(engine);
            for (var i = 0; i < words.Count; i++)
                await db.PutAsync($"words/{i}", "{\"Text\":\"x" + words[i] + "\",\"@metadata\":{\"@collection\":\"Words\"}}");
            answers.Add(await SortedIdsAsync(db, "from Words where search(Text, 'xabca~2')"));
            answers.Add(await SortedIdsAsync(db, "from Words where search(Text, 'xabca~1')"));
            answers.Add(await SortedIdsAsync(db, "from Words where fuzzy(Text = 'xdcba', 0.6)"));
        }
        Assert.Equal(50, answers[0].Count);
        Assert.Equal(answers[0], answers[3]);
        Assert.Equal(answers[1], answers[4]);
        Assert.Equal(answers[2], answers[5]);
        Assert.InRange(answers[1].Count, 5, 49);
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Fuzzy_MatchesWholeValuesNearTheValue_InTheSeedsSyntax(string engine)
    {
        using var db = await OpenAsync(engine);
        // 0.5 of 12 code points allows 6 edits, capped at 2: 'Ernst Handel' is two transpositions away, 'Ernst Handle' three.
        Assert.Equal(["notes/1", "notes/5"], await SortedIdsAsync(db, "from Notes where fuzzy(Name = 'Ernts Hnadel', 0.5)"));
        // 0.9 of 12 allows 1 edit: 'Ernst Handle' is one transposition away.
        Assert.Equal(["notes/1", "notes/2"], await SortedIdsAsync(db, "from Notes where fuzzy(Name = 'Ernst Handel', 0.9)"));
        Assert.Equal(["notes/1"], await SortedIdsAsync(db, "from Notes where fuzzy(Name = 'Ernst Handel', 0)"));
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Search_MatchesPhrasesWithinSlop_AsLuceneDoes(string engine)
    {
        using var db = await OpenAsync(engine);
        Assert.Equal(["notes/1"], await SortedIdsAsync(db, "from Notes where search(Notes, '\"fluent french\"')"));
        // Out of order costs more than apart: in notes/4 (french greeting fluent) fluent stands 2 after french, and the
        // phrase wants it 1 before, so the slop it needs is 3.
        Assert.Equal(["notes/1"], await SortedIdsAsync(db, "from Notes where search(Notes, '\"fluent french\"~2')"));
        Assert.Equal(["notes/1", "notes/4"], await SortedIdsAsync(db, "from Notes where search(Notes, '\"fluent french\"~3')"));
        // notes/3 (fluent in writing and reading technical french): french stands 5 positions further than in the phrase, stop words counted.
        Assert.Equal(["notes/1", "notes/4"], await SortedIdsAsync(db, "from Notes where search(Notes, '\"fluent french\"~4')"));
        Assert.Equal(["notes/1", "notes/3", "notes/4"], await SortedIdsAsync(db, "from Notes where search(Notes, '\"fluent french\"~5')"));
        Assert.Equal(["notes/1", "notes/3", "notes/4"], await SortedIdsAsync(db, "from Notes where proximity(search(Notes, 'fluent french'), 5)"));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Search_FindsTheSameSloppyPhrases_OnBothEngines(bool repeatedWords)
    {
        // Short texts over a few words, so most phrases are near somewhere and slops decide.
        string[] vocabulary = ["red", "green", "blue", "cyan", "pink", "gold"];
        var random = new Random(repeatedWords ? 29 : 21);
        var texts = Enumerable.Range(0, 300).Select(_ => string.Join(' ', Enumerable.Range(0, 3 + random.Next(8)).Select(_ => vocabulary[random.Next(vocabulary.Length)]))).ToList();
        var phrases = new List<string>();
        while (phrases.Count < 120)
        {
            var words = Enumerable.Range(0, 2 + random.Next(2)).Select(_ => vocabulary[random.Next(vocabulary.Length)]).ToList();
            if (repeatedWords == (words.Distinct().Count() < words.Count))
                phrases.Add($"\"{string.Join(' ', words)}\"~{random.Next(6)}");
        }
        var answers = new List<List<string>>();
        foreach (var engine in new[] { "Folio", "Lucene" })
        {
            using var db = new InMemoryDatabase(engine);
            for (var i = 0; i < texts.Count; i++)
                await db.PutAsync($"texts/{i}", "{\"Text\":\"" + texts[i] + "\",\"@metadata\":{\"@collection\":\"Texts\"}}");
            foreach (var phrase in phrases)
                answers.Add(await SortedIdsAsync(db, $"from Texts where search(Text, '{phrase}')"));
        }
        var differ = Enumerable.Range(0, phrases.Count).Where(q => !answers[q].SequenceEqual(answers[phrases.Count + q])).Select(q => phrases[q]).ToList();
        Assert.True(differ.Count == 0, "answered differently: " + string.Join(", ", differ));
        Assert.True(answers.Take(phrases.Count).Count(a => a.Count > 0) > phrases.Count / 2, "too few phrases matched anything");
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Boost_ChangesTheScoreOrder(string engine)
    {
        using var db = await OpenAsync(engine);
        var plain = await IdsAsync(db, "from Notes where search(Notes, 'german') or search(Notes, 'technical') order by score()");
        Assert.Equal(2, plain.Count);
        var first = plain[0];
        var other = plain[1];
        var boostOther = other == "notes/1" ? "german" : "technical";
        var boostFirst = boostOther == "german" ? "technical" : "german";
        Assert.Equal([other, first], await IdsAsync(db, $"from Notes where boost(search(Notes, '{boostOther}'), 10) or search(Notes, '{boostFirst}') order by score()"));
        // A clause that does not score scores its factor when boosted.
        Assert.Equal(["notes/4", "notes/1"], await IdsAsync(db, "from Notes where boost(Name = 'Bob', 100) or search(Notes, 'german') order by score()"));
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Highlight_MarksTheMatchedTerms_InTheBestFragments(string engine)
    {
        using var db = await OpenAsync(engine);
        var highlights = await HighlightsAsync(db, "from Notes where search(Notes, 'fluent') or search(Notes, 'frnech~') order by id() include highlight(Notes, 128, 1)");
        Assert.Equal("She speaks <b>fluent</b> <b>French</b> and some German", Assert.Single(highlights["Notes"]["notes/1"]));
        Assert.Equal("He is <b>fluent</b> in writing and reading technical <b>French</b>", Assert.Single(highlights["Notes"]["notes/3"]));
        Assert.Equal(4, highlights["Notes"].Count);

        // Fragments of about 20 characters: the one with both terms first, then the one with one.
        var two = await HighlightsAsync(db, "from Notes where search(Notes, 'italian french') include highlight(Notes, 20, 2, $tags)", """{"tags":{"PreTags":["["],"PostTags":["]"]}}""");
        Assert.Equal(["[French] is spoken", "fluent in [Italian]"], two["Notes"]["notes/2"]);
        var phrase = await HighlightsAsync(db, "from Notes where proximity(search(Notes, 'fluent french'), 5) include highlight(Notes, 18, 1)");
        // Two fragments with one term each: the earlier one.
        Assert.Equal(["She speaks <b>fluent</b>"], phrase["Notes"]["notes/1"]);
        Assert.Empty((await HighlightsAsync(db, "from Notes where search(Notes, 'nothing') include highlight(Notes, 128, 1)"))["Notes"]);
    }

    [Fact]
    public async Task Highlight_GivesTheSameFragments_OnBothEngines()
    {
        var answers = new List<string>();
        foreach (var engine in new[] { "Folio", "Lucene" })
        {
            using var db = await OpenAsync(engine);
            var highlights = await HighlightsAsync(db, "from Notes where search(Notes, 'fluen* \"fluent french\"~5 handel~') include highlight(Notes, 30, 3)");
            answers.Add(JsonSerializer.Serialize(highlights.ToDictionary(f => f.Key, f => f.Value.OrderBy(d => d.Key, StringComparer.Ordinal).ToList()), Readable));
        }
        Assert.Equal(answers[0], answers[1]);
        Assert.Contains("<b>handle</b> of the door", answers[0], StringComparison.Ordinal);
        Assert.Contains("reading technical <b>French</b>", answers[0], StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("from Notes where search(Notes, 'french') include highlight(Notes, 0, 1)", "fragment length", 66)]
    [InlineData("from Notes where search(Notes, 'french') include highlight(Notes, 128, -1)", "fragment count", 71)]
    public async Task Highlight_IsRefusedNamingThePosition_WhenTheFragmentsAreOutOfRange(string rql, string message, int position)
    {
        using var db = await OpenAsync("Folio");
        var error = await Assert.ThrowsAsync<RqlParseException>(() => db.QueryAsync(rql));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.Equal(position, error.Position);
    }

    private static async Task<IReadOnlyDictionary<string, Dictionary<string, string[]>>> HighlightsAsync(InMemoryDatabase db, string rql, string? parameters = null)
    {
        using var result = await db.Runner.RunAsync(rql, new QueryOptions
        {
            WaitForNonStaleResults = true,
            Parameters = parameters is null ? null : JsonDocument.Parse(parameters).RootElement.Clone(),
        });
        return result.Highlightings!.ToDictionary(f => f.Key, f => new Dictionary<string, string[]>(f.Value));
    }

    [Theory]
    [InlineData("from Notes where search(Notes, 'frnech~9')", "from 0 to 2", 39)]
    [InlineData("from Notes where search(Notes, '\"fluent french\"~-1')", "0 or more", 48)]
    [InlineData("from Notes where search(Notes, '\"fluent french')", "not closed", 32)]
    [InlineData("from Notes where proximity(search(Notes, 'fluent french'), -1)", "0 or more", 59)]
    [InlineData("from Notes where boost(search(Notes, 'french'), 0)", "greater than 0", 48)]
    [InlineData("from Notes where fuzzy(Name = 'Ernst', 3)", "from 0 to 2", 39)]
    [InlineData("from Notes where fuzzy(Name > 'Ernst', 0.5)", "equality", 23)]
    public async Task Query_IsRefusedNamingThePosition_WhenFuzzyProximityOrBoostIsOutOfRange(string rql, string message, int position)
    {
        using var db = await OpenAsync("Folio");
        var error = await Assert.ThrowsAsync<RqlParseException>(() => db.QueryAsync(rql));
        Assert.Contains(message, error.Message, StringComparison.Ordinal);
        Assert.Equal(position, error.Position);
    }
}
